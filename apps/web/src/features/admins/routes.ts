import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** Managing the console's administrators, a settings screen (in the landing screens' chunk, app/landing-screens.ts). */
export const adminsRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings/manage-administrators',
    titleKey: 'page.manage_administrators',
    rule: RULES.superAdmin,
    screen: lazyScreen(() => import('./Administrators.tsx'), 'Administrators'),
  },
];
