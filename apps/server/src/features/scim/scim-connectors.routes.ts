import {
  scimConnectorCreateEndpoint,
  scimConnectorRequestsEndpoint,
  scimConnectorRevokeEndpoint,
  scimConnectorRotateEndpoint,
  scimConnectorsEndpoint,
} from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import type { Approvals } from '../approvals/index.ts';
import type { ScimConnectorsService } from './scim-connectors.service.ts';

/** The console's calls for SCIM connectors (super admin; enterprise, standard and starter organisations). */
export function scimConnectorsRoutes(router: Router, guard: Guard, connectors: ScimConnectorsService, approvals: Approvals) {
  // Under four-eyes approval: a new connector and a new token are shown once, to the requester,
  // when they repeat the call once approved; a revocation runs on approval.
  const create = approvals.approvable(scimConnectorCreateEndpoint, 'scim.connector', {
    run: (input, caller, q) => connectors.create(caller, input.idp, input.name, q),
    describe: async (input) => ({ summary: `Create the SCIM connector "${input.name}" (${input.idp})` }),
  });
  const rotate = approvals.approvable(scimConnectorRotateEndpoint, 'scim.rotate', {
    run: (input, caller, q) => connectors.rotate(caller, input.id, input.overlap_hours, q),
    describe: async (input) => ({
      summary: `Rotate the token of SCIM connector ${input.id} (the previous one works ${input.overlap_hours} h more)`,
    }),
  });
  const revoke = approvals.approvable(scimConnectorRevokeEndpoint, 'scim.revoke', {
    run: (input, caller, q) => connectors.revoke(caller, input.id, q),
    describe: async (input) => ({ summary: `Revoke SCIM connector ${input.id}` }),
  });
  router.handle(scimConnectorsEndpoint, guard, ({ ctx }) => connectors.list(requireCaller(ctx)));
  router.handle(scimConnectorCreateEndpoint, guard, ({ ctx, input }) => create(requireCaller(ctx), input));
  router.handle(scimConnectorRotateEndpoint, guard, ({ ctx, input }) => rotate(requireCaller(ctx), input));
  router.handle(scimConnectorRevokeEndpoint, guard, ({ ctx, input }) => revoke(requireCaller(ctx), input));
  router.handle(scimConnectorRequestsEndpoint, guard, ({ ctx, input }) =>
    connectors.requests(requireCaller(ctx), input.id, input.page),
  );
}
