import {
  scimConnectorCreateEndpoint,
  scimConnectorRequestsEndpoint,
  scimConnectorRevokeEndpoint,
  scimConnectorRotateEndpoint,
  scimConnectorsEndpoint,
} from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import type { ScimConnectorsService } from './scim-connectors.service.ts';

/** The console's calls for SCIM connectors (super admin; enterprise, standard and starter organisations). */
export function scimConnectorsRoutes(router: Router, guard: Guard, connectors: ScimConnectorsService) {
  router.handle(scimConnectorsEndpoint, guard, ({ ctx }) => connectors.list(requireCaller(ctx)));
  router.handle(scimConnectorCreateEndpoint, guard, ({ ctx, input }) =>
    connectors.create(requireCaller(ctx), input.idp, input.name),
  );
  router.handle(scimConnectorRotateEndpoint, guard, ({ ctx, input }) =>
    connectors.rotate(requireCaller(ctx), input.id, input.overlap_hours),
  );
  router.handle(scimConnectorRevokeEndpoint, guard, ({ ctx, input }) => connectors.revoke(requireCaller(ctx), input.id));
  router.handle(scimConnectorRequestsEndpoint, guard, ({ ctx, input }) =>
    connectors.requests(requireCaller(ctx), input.id, input.page),
  );
}
