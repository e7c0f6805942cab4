import {
  credentialsAddEndpoint,
  credentialsDeleteEndpoint,
  credentialsEndpoint,
  credentialsSetupEndpoint,
  credentialsUpdateEndpoint,
  disableAuxServicesEndpoint,
  enableAuxServicesEndpoint,
  HOSTED_HUB_KEY,
  hostingPreferencesEndpoint,
  hubAdminRoleEndpoint,
  hubAdminsCheckEndpoint,
  hubSessionCheckEndpoint,
  recoveryServiceUpdateEndpoint,
  teamServiceEndpoint,
} from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import { adminsAmong } from './admins-check.ts';
import { createIntegrationService, type IntegrationOptions } from './integration.service.ts';
import { createRecoverySwitchService } from './recovery-switch.service.ts';
import { adminRole } from './role-check.ts';
import { checkConsoleSession } from './session-check.ts';

/** /integration: super admin or integrator (RULES.integration), every rule in the service. */
export function integrationRoutes(router: Router, guard: Guard, db: Db, options: IntegrationOptions) {
  const hubs = createIntegrationService(db, options);
  router.handle(credentialsEndpoint, guard, ({ ctx }) => hubs.list(requireCaller(ctx)));
  router.handle(credentialsAddEndpoint, guard, ({ ctx, input }) => hubs.add(requireCaller(ctx), input.name));
  router.handle(credentialsUpdateEndpoint, guard, ({ ctx, input }) =>
    hubs.rename(requireCaller(ctx), input.credential_id, input.name),
  );
  router.handle(credentialsDeleteEndpoint, guard, ({ ctx, input }) => hubs.remove(requireCaller(ctx), input.credential_id));
  router.handle(credentialsSetupEndpoint, guard, ({ ctx, input }) =>
    hubs.setup(
      requireCaller(ctx),
      input[HOSTED_HUB_KEY].credential_id,
      input[HOSTED_HUB_KEY].server_url,
      input[HOSTED_HUB_KEY].setup_key,
    ),
  );
  // A Hub's signed question about a console session (no console session of its own).
  router.handle(hubSessionCheckEndpoint, guard, ({ input, request }) => checkConsoleSession(db, request, input, options.lookups));
  router.handle(hubAdminRoleEndpoint, guard, ({ input, request }) => adminRole(db, request, input, options.lookups));
  // Which addresses are the team's administrators: an alert rule's e-mail goes to them only.
  router.handle(hubAdminsCheckEndpoint, guard, ({ input, request }) => adminsAmong(db, request, input, options.lookups));
  router.handle(hostingPreferencesEndpoint, guard, ({ ctx, input }) => hubs.hosting(requireCaller(ctx), input.hosting));
  router.handle(enableAuxServicesEndpoint, guard, ({ ctx, input }) =>
    hubs.enable(requireCaller(ctx), input.credential_id, input.services),
  );
  router.handle(disableAuxServicesEndpoint, guard, ({ ctx, input }) => hubs.disable(requireCaller(ctx), input.services));
  router.handle(teamServiceEndpoint, guard, ({ ctx, input }) => hubs.serviceState(requireCaller(ctx), input.service));
}

/**
 * The recovery switch on the team's Hub (registered after the audit policy: the OpenAPI document
 * lists calls in registration order).
 */
export function recoverySwitchRoutes(router: Router, guard: Guard, db: Db) {
  const recovery = createRecoverySwitchService(db);
  router.handle(recoveryServiceUpdateEndpoint, guard, async ({ input, ctx }) =>
    recovery.setRecovery(requireCaller(ctx), input.enable_recovery),
  );
}
