/** The policy screens, one lazy chunk. */

export { Policies } from './Policies.tsx';
export { PolicyChange } from './PolicyChange.tsx';
export { PolicyHistory } from './PolicyHistory.tsx';
