/**
 * The usual landing screens (dashboard, members, groups, member devices, profile, administrators,
 * branding), one lazy chunk (vite.config.ts): fewer chunk splits for the sign-in bundle to share.
 * Gathered here, not in one of the features, so no feature imports another's screens.
 */

export { Profile } from '../features/account/Profile.tsx';
export { Administrators } from '../features/admins/Administrators.tsx';
export * from '../features/branding/screens.ts';
export { Dashboard } from '../features/dashboard/Dashboard.tsx';
export * from '../features/groups/screens.ts';
export { Members } from '../features/members/Members.tsx';
