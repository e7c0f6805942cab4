import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';
import { APPROVALS_RULE } from './rule.ts';

/** Four-eyes approvals, a settings screen: requests waiting, the admin's own, the history, and the policy. */
export const approvalsRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings/approvals',
    titleKey: 'page.approvals',
    rule: APPROVALS_RULE,
    screen: lazyScreen(() => import('./screens.ts'), 'Approvals'),
  },
];
