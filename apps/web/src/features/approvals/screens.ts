/** The approvals screen, its own lazy chunk. */
export { Approvals } from './Approvals.tsx';
