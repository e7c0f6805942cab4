/** The groups and member-device screens (bundled with the people screens in app/layout/people-screens.ts). */

export { GroupMembers } from './GroupMembers.tsx';
export { Groups } from './Groups.tsx';
export { MemberDevices } from './MemberDevices.tsx';
