/** The groups and member-device screens, one lazy chunk. */

export { GroupMembers } from './GroupMembers.tsx';
export { Groups } from './Groups.tsx';
export { MemberDevices } from './MemberDevices.tsx';
