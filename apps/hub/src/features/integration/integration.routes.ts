import {
  hubDeleteConnectorEndpoint,
  hubEnabledServicesEndpoint,
  hubRegisterEndpoint,
  hubRevokeSessionsEndpoint,
  hubSetServicesEndpoint,
  hubVerifyEndpoint,
} from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type HubGuard, requireHubCaller } from '../../http/caller.ts';
import type { HubKeys } from '../../platform/keys.ts';
import type { HubSessionsService } from '../auth/index.ts';
import { createIntegrationService } from './integration.service.ts';
import { registerCredential } from './register.ts';
import { verifyServerCall } from './server-call.ts';

/** The licence server's signed calls (register, verify, switch services, revoke) and the console's delete-connector call. */
export function integrationRoutes(
  router: Router,
  guard: HubGuard,
  db: Db,
  version: string,
  keys: HubKeys,
  sessions: HubSessionsService,
) {
  const integration = createIntegrationService(db, version, sessions);

  router.handle(hubRegisterEndpoint, guard, async ({ input, request }) => {
    await registerCredential(db, keys.setupSecret, hubRegisterEndpoint.path, input, request.headers.authorization, request.body);
    return { hub_key: keys.publicJwk, version };
  });

  router.handle(hubVerifyEndpoint, guard, async ({ input, request }) => {
    await verifyServerCall(db, request, hubVerifyEndpoint.path, input.team_slug);
    return integration.state(input.team_slug);
  });

  router.handle(hubSetServicesEndpoint, guard, async ({ input, request }) =>
    integration.setServices(await verifyServerCall(db, request, hubSetServicesEndpoint.path, input.team_slug), input.enabled),
  );

  router.handle(hubRevokeSessionsEndpoint, guard, async ({ input, request }) => {
    await verifyServerCall(db, request, hubRevokeSessionsEndpoint.path, input.team_slug);
    return integration.revokeSessions(input.team_slug, input);
  });

  router.handle(hubDeleteConnectorEndpoint, guard, async ({ ctx }) =>
    integration.deleteConnector(requireHubCaller(ctx).teamSlug),
  );

  router.handle(hubEnabledServicesEndpoint, guard, async ({ ctx }) => integration.state(requireHubCaller(ctx).teamSlug));
}
