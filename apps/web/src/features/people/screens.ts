/** The people screens (bundled with groups' and branding's in app/layout/people-screens.ts). */

export { Administrators } from './Administrators.tsx';
export { Dashboard } from './Dashboard.tsx';
export { Members } from './Members.tsx';
export { Profile } from './Profile.tsx';
