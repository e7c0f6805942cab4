import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

const screens = () => import('./screens.ts');

/** The team and group policies and their history. */
export const policiesRoutes: readonly ConsoleRoute[] = [
  {
    path: 'policies',
    titleKey: 'page.policies',
    rule: RULES.policies,
    screen: lazyScreen(screens, 'Policies'),
    nav: { section: 'main', position: 40, labelKey: 'nav.policy', icon: 'policy' },
  },
  {
    path: 'policies/history',
    titleKey: 'page.policy_history',
    rule: RULES.policyHistory,
    screen: lazyScreen(screens, 'PolicyHistory'),
    backTo: { href: '/policies', titleKey: 'page.policies' },
  },
  {
    path: 'policies/history/:historyId',
    titleKey: 'page.policy_change',
    rule: RULES.policyHistory,
    screen: lazyScreen(screens, 'PolicyChange'),
    backTo: { href: '/policies/history', titleKey: 'page.policy_history' },
  },
];
