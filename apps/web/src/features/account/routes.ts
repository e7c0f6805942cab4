import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** The admin's profile (in the landing screens' chunk, app/landing-screens.ts) and account security. */
export const accountRoutes: readonly ConsoleRoute[] = [
  {
    path: 'profile',
    titleKey: 'page.profile',
    rule: RULES.anyAdmin,
    screen: lazyScreen(() => import('./Profile.tsx'), 'Profile'),
  },
  {
    path: 'settings/account-security',
    titleKey: 'page.account_security',
    rule: RULES.anyAdmin,
    screen: lazyScreen(() => import('./AccountSecurity.tsx'), 'AccountSecurity'),
  },
];
