import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** The SAML connector, a settings screen. */
export const ssoRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings/sso-connector',
    titleKey: 'page.sso_connector',
    rule: RULES.superAdmin,
    screen: lazyScreen(() => import('./screens.ts'), 'SsoConnector'),
  },
];
