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
  hubSessionCheckEndpoint,
  teamServiceEndpoint,
} from '@latchkey/contracts';
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import { createIntegrationService, type IntegrationOptions } from './integration.service.ts';
import { checkConsoleSession } from './session-check.ts';

export const INTEGRATION_ENDPOINTS = [
  credentialsEndpoint,
  credentialsAddEndpoint,
  credentialsUpdateEndpoint,
  credentialsDeleteEndpoint,
  credentialsSetupEndpoint,
  hostingPreferencesEndpoint,
  enableAuxServicesEndpoint,
  disableAuxServicesEndpoint,
  teamServiceEndpoint,
  hubSessionCheckEndpoint,
];

/** /integration: super admin or integrator (RULES.integration), every rule in the service. */
export function integrationRoutes(app: FastifyInstance, guard: Guard, db: Db, options: IntegrationOptions) {
  const hubs = createIntegrationService(db, options);
  registerEndpoint(app, credentialsEndpoint, guard, ({ ctx }) => hubs.list(requireCaller(ctx)));
  registerEndpoint(app, credentialsAddEndpoint, guard, ({ ctx, input }) => hubs.add(requireCaller(ctx), input.name));
  registerEndpoint(app, credentialsUpdateEndpoint, guard, ({ ctx, input }) =>
    hubs.rename(requireCaller(ctx), input.credential_id, input.name),
  );
  registerEndpoint(app, credentialsDeleteEndpoint, guard, ({ ctx, input }) =>
    hubs.remove(requireCaller(ctx), input.credential_id),
  );
  registerEndpoint(app, credentialsSetupEndpoint, guard, ({ ctx, input }) =>
    hubs.setup(
      requireCaller(ctx),
      input[HOSTED_HUB_KEY].credential_id,
      input[HOSTED_HUB_KEY].server_url,
      input[HOSTED_HUB_KEY].setup_key,
    ),
  );
  // A Hub's signed question about a console session (no console session of its own).
  registerEndpoint(app, hubSessionCheckEndpoint, guard, ({ input, request }) => checkConsoleSession(db, request, input));
  registerEndpoint(app, hostingPreferencesEndpoint, guard, ({ ctx, input }) => hubs.hosting(requireCaller(ctx), input.hosting));
  registerEndpoint(app, enableAuxServicesEndpoint, guard, ({ ctx, input }) =>
    hubs.enable(requireCaller(ctx), input.credential_id, input.services),
  );
  registerEndpoint(app, disableAuxServicesEndpoint, guard, ({ ctx, input }) => hubs.disable(requireCaller(ctx), input.services));
  registerEndpoint(app, teamServiceEndpoint, guard, ({ ctx, input }) => hubs.serviceState(requireCaller(ctx), input.service));
}
