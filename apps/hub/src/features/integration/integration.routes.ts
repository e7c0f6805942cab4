import {
  AUX_SERVICES,
  hubDeleteConnectorEndpoint,
  hubEnabledServicesEndpoint,
  hubRegisterEndpoint,
  hubRevokeSessionsEndpoint,
  hubSetServicesEndpoint,
  hubVerifyEndpoint,
} from '@latchkey/contracts';
import { AppError, type Db, type Router } from '@latchkey/runtime';
import { type HubGuard, requireHubCaller } from '../../http/guard.ts';
import type { HubKeys } from '../../platform/keys.ts';
import type { HubSessionsService } from '../auth/index.ts';
import { servicesFor } from '../connector/index.ts';
import { registrationsRepository as repo } from '../registrations/index.ts';
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
  const offered = servicesFor(version);
  const state = async (teamSlug: string) => ({ version, offered, enabled: await repo.enabledForTeam(db, teamSlug) });

  router.handle(hubRegisterEndpoint, guard, async ({ input, request }) => {
    await registerCredential(db, keys.setupSecret, hubRegisterEndpoint.path, input, request.headers.authorization, request.body);
    return { hub_key: keys.publicJwk, version };
  });

  router.handle(hubVerifyEndpoint, guard, async ({ input, request }) => {
    await verifyServerCall(db, request, hubVerifyEndpoint.path, input.team_slug);
    return state(input.team_slug);
  });

  router.handle(hubSetServicesEndpoint, guard, async ({ input, request }) => {
    const registration = await verifyServerCall(db, request, hubSetServicesEndpoint.path, input.team_slug);
    const missing = input.enabled.filter((s) => !offered.includes(s));
    if (missing.length > 0) {
      throw new AppError('not_allowed', `This Hub (version ${version}) does not run: ${missing.join(', ')}.`).shows(
        'errors.hub_lacks_services',
        { version, missing: missing.join(', ') },
      );
    }
    const enabled = AUX_SERVICES.filter((s) => input.enabled.includes(s));
    await repo.setServices(db, registration.id, enabled);
    return state(input.team_slug);
  });

  router.handle(hubRevokeSessionsEndpoint, guard, async ({ input, request }) => {
    await verifyServerCall(db, request, hubRevokeSessionsEndpoint.path, input.team_slug);
    const revoked = await sessions.revokeFromServer(input.team_slug, {
      sessionIds: input.session_ids ?? [],
      userId: input.user_id ?? null,
    });
    return { revoked };
  });

  router.handle(hubDeleteConnectorEndpoint, guard, async ({ ctx }) => {
    const caller = requireHubCaller(ctx);
    // Sessions cascade with the registration, the caller's own included.
    await repo.deleteForTeam(db, caller.teamSlug);
    return { code: 'connector_deleted' as const };
  });

  router.handle(hubEnabledServicesEndpoint, guard, async ({ ctx }) => state(requireHubCaller(ctx).teamSlug));
}
