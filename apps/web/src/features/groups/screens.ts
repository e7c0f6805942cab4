/** The groups and member-device screens (in the landing screens' chunk, app/landing-screens.ts). */

export { GroupMembers } from './GroupMembers.tsx';
export { Groups } from './Groups.tsx';
export { MemberDevices } from './MemberDevices.tsx';
