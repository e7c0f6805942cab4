import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** The members list (its code is in the landing screens' chunk, app/landing-screens.ts). */
export const membersRoutes: readonly ConsoleRoute[] = [
  {
    path: 'users',
    titleKey: 'page.users',
    rule: RULES.people,
    screen: lazyScreen(() => import('./Members.tsx'), 'Members'),
    nav: { section: 'main', position: 20, labelKey: 'nav.users', icon: 'users' },
  },
];
