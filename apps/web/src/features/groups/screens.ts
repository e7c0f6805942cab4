/** The groups, member-device and branding screens, one lazy chunk (fewer chunk splits for the sign-in bundle). */

export { Branding } from '../branding/Branding.tsx';
export { GroupMembers } from './GroupMembers.tsx';
export { Groups } from './Groups.tsx';
export { MemberDevices } from './MemberDevices.tsx';
