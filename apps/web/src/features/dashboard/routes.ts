import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** The dashboard, the first item of the sidebar (its code is in the landing screens' chunk, app/landing-screens.ts). */
export const dashboardRoutes: readonly ConsoleRoute[] = [
  {
    path: 'dashboard',
    titleKey: 'page.dashboard',
    rule: RULES.dashboard,
    screen: lazyScreen(() => import('./Dashboard.tsx'), 'Dashboard'),
    nav: { section: 'main', position: 10, labelKey: 'nav.dashboard', icon: 'dashboard' },
  },
];
