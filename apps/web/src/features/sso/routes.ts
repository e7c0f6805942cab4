import { RULES } from '@latchkey/contracts/client';
import { type ConsoleRoute, lazyScreen } from '../../lib/console-route.ts';

/** The SAML connector, a settings screen. */
export const ssoRoutes: readonly ConsoleRoute[] = [
  {
    path: 'settings/sso-connector',
    titleKey: 'page.sso_connector',
    rule: RULES.superAdmin,
    // Spec §2 desktop-only pages: setting up SAML means the identity provider's admin console
    // beside this one, its metadata file, and a test sign-in in a 600×500 window.
    desktopOnly: true,
    screen: lazyScreen(() => import('./screens.ts'), 'SsoConnector'),
  },
];
