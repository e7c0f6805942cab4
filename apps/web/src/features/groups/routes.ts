import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

const screens = () => import('./screens.ts');

/** Groups, a group's members and a member's devices (in the landing screens' chunk, app/landing-screens.ts). */
export const groupsRoutes: readonly ConsoleRoute[] = [
  {
    path: 'users/:userData',
    titleKey: 'page.user_devices',
    rule: RULES.people,
    screen: lazyScreen(screens, 'MemberDevices'),
    backTo: { href: '/users', titleKey: 'page.users' },
  },
  {
    path: 'groups',
    titleKey: 'page.groups',
    rule: RULES.people,
    screen: lazyScreen(screens, 'Groups'),
    nav: { section: 'main', position: 30, labelKey: 'nav.groups', icon: 'groups' },
  },
  {
    path: 'groups/:groupId',
    titleKey: 'page.group_users',
    rule: RULES.people,
    screen: lazyScreen(screens, 'GroupMembers'),
    backTo: { href: '/groups', titleKey: 'page.groups' },
  },
  {
    path: 'groups/:groupId/:userData',
    titleKey: 'page.user_devices',
    rule: RULES.people,
    screen: lazyScreen(screens, 'MemberDevices'),
    backTo: { href: '/groups/:groupId', titleKey: 'page.group_users' },
  },
];
