import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

const screens = () => import('./screens.ts');

/** The security audit (a Hub service in the sidebar) and one vault's summary below it. */
export const auditRoutes: readonly ConsoleRoute[] = [
  {
    path: 'audit',
    titleKey: 'page.audit',
    rule: RULES.audit,
    screen: lazyScreen(screens, 'Audit'),
    nav: {
      section: 'hub',
      position: 20,
      labelKey: 'nav.audit',
      icon: 'audit',
      service: 'audit',
      feature: 'audit',
      alsoFor: ['/vault'],
    },
  },
  {
    path: 'vault/:summaryId',
    titleKey: 'page.vault_summary',
    rule: RULES.audit,
    screen: lazyScreen(screens, 'VaultSummary'),
    backTo: { href: '/audit', titleKey: 'page.audit' },
  },
];
