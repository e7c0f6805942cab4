// SAML single sign-on: connectors (sso-connectors.ts), the service provider per team
// (sso-service-provider.ts), enforcement with its break-glass rule (sso-enforcement.ts), and the
// sign-in with the assertion consumer service (sso-login.ts), composed into one service.
import { createSsoConnectors } from './sso-connectors.ts';
import { createSsoEnforcement } from './sso-enforcement.ts';
import { createSsoLogin } from './sso-login.ts';
import { createServiceProvider, type SsoDeps } from './sso-service-provider.ts';

export function createSsoService(deps: SsoDeps) {
  const serviceProvider = createServiceProvider(deps);
  return {
    ...createSsoConnectors(deps, serviceProvider),
    ...createSsoEnforcement(deps),
    ...createSsoLogin(deps, serviceProvider),
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
export type { SsoDeps };
