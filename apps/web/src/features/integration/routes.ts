import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** The Hub connection, the first item of the sidebar's Hub part. */
export const integrationRoutes: readonly ConsoleRoute[] = [
  {
    path: 'integration',
    titleKey: 'page.integration',
    rule: RULES.integration,
    screen: lazyScreen(() => import('./Integration.tsx'), 'Integration'),
    nav: { section: 'hub', position: 10, labelKey: 'nav.integration', icon: 'integration' },
  },
];
