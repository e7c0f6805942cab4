import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** Billing and licences; family teams do not see it in the sidebar. */
export const billingRoutes: readonly ConsoleRoute[] = [
  {
    path: 'billing',
    titleKey: 'page.billing',
    rule: RULES.billing,
    screen: lazyScreen(() => import('./screens.ts'), 'Billing'),
    nav: { section: 'main', position: 50, labelKey: 'nav.billing', icon: 'billing', hiddenForFamily: true },
  },
];
