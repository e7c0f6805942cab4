import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** The organisation's logo, a settings screen (in the landing screens' chunk, app/landing-screens.ts). */
export const brandingRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings/organization-branding',
    titleKey: 'page.organization_branding',
    rule: RULES.superAdmin,
    screen: lazyScreen(() => import('./screens.ts'), 'Branding'),
  },
];
