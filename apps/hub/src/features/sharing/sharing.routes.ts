import {
  shareCreateEndpoint,
  shareViewEndpoint,
  sharingLimitsEndpoint,
  sharingLimitsUpdateEndpoint,
  sharingLinksEndpoint,
  sharingRevokeEndpoint,
} from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type HubGuard, requireHubCaller } from '../../http/caller.ts';
import { type DeviceGuard, requireDevice } from '../devices/index.ts';
import { createSharingService } from './sharing.service.ts';

/** Secret sharing: the apps record links within the team's limits; the super admin oversees them. */
export function sharingRoutes(router: Router, guard: HubGuard, deviceGuard: DeviceGuard, db: Db) {
  const sharing = createSharingService(db);
  router.handle(shareCreateEndpoint, deviceGuard, async ({ input, ctx }) => sharing.create(requireDevice(ctx), input));

  router.handle(shareViewEndpoint, deviceGuard, async ({ input, ctx }) =>
    sharing.view(requireDevice(ctx).teamSlug, input.share_id),
  );

  router.handle(sharingLinksEndpoint, guard, async ({ input, ctx }) => sharing.activePage(requireHubCaller(ctx).teamSlug, input));

  router.handle(sharingRevokeEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return sharing.revoke(caller.teamSlug, input.share_ids, caller.email);
  });

  router.handle(sharingLimitsEndpoint, guard, async ({ ctx }) => sharing.limits(requireHubCaller(ctx).teamSlug));

  router.handle(sharingLimitsUpdateEndpoint, guard, async ({ input, ctx }) =>
    sharing.setLimits(requireHubCaller(ctx).teamSlug, input, requireHubCaller(ctx).email),
  );
}
