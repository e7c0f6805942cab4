import {
  shareCreateEndpoint,
  shareViewEndpoint,
  sharingLimitsEndpoint,
  sharingLimitsUpdateEndpoint,
  sharingLinksEndpoint,
  sharingRevokeEndpoint,
} from '@latchkey/contracts';
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type HubGuard, requireHubCaller } from '../../http/guard.ts';
import { type DeviceGuard, requireDevice } from '../devices/index.ts';
import { createSharingService } from './sharing.service.ts';

/** Secret sharing: the apps record links within the team's limits; the super admin oversees them. */
export function sharingRoutes(app: FastifyInstance, guard: HubGuard, deviceGuard: DeviceGuard, db: Db) {
  const sharing = createSharingService(db);
  registerEndpoint(app, shareCreateEndpoint, deviceGuard, async ({ input, ctx }) => sharing.create(requireDevice(ctx), input));

  registerEndpoint(app, shareViewEndpoint, deviceGuard, async ({ input, ctx }) =>
    sharing.view(requireDevice(ctx).teamSlug, input.share_id),
  );

  registerEndpoint(app, sharingLinksEndpoint, guard, async ({ input, ctx }) =>
    sharing.activePage(requireHubCaller(ctx).teamSlug, input),
  );

  registerEndpoint(app, sharingRevokeEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return sharing.revoke(caller.teamSlug, input.share_ids, caller.email);
  });

  registerEndpoint(app, sharingLimitsEndpoint, guard, async ({ ctx }) => sharing.limits(requireHubCaller(ctx).teamSlug));

  registerEndpoint(app, sharingLimitsUpdateEndpoint, guard, async ({ input, ctx }) =>
    sharing.setLimits(requireHubCaller(ctx).teamSlug, input),
  );
}
