/** The people screens, one lazy chunk: fewer chunk splits for the sign-in bundle to share. */

export * from '../groups/screens.ts';
export { Administrators } from './Administrators.tsx';
export { Dashboard } from './Dashboard.tsx';
export { Members } from './Members.tsx';
export { Profile } from './Profile.tsx';
