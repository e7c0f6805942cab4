import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** The SCIM connectors, a settings screen. */
export const scimRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings/scim-connectors',
    titleKey: 'page.scim_connectors',
    rule: RULES.scim,
    screen: lazyScreen(() => import('./ScimConnectors.tsx'), 'ScimConnectors'),
  },
];
