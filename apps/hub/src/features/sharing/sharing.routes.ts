import {
  shareCreateEndpoint,
  shareViewEndpoint,
  sharingLimitsEndpoint,
  sharingLimitsUpdateEndpoint,
  sharingLinksEndpoint,
  sharingRevokeEndpoint,
} from '@latchkey/contracts';
import { AppError, type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type HubGuard, requireHubCaller } from '../../http/guard.ts';
import { type DeviceGuard, requireDevice } from '../devices/device-guard.ts';
import { sharingRepository } from './sharing.repository.ts';

/** Secret sharing: the apps record links within the team's limits; the super admin oversees them. */
export function sharingRoutes(app: FastifyInstance, guard: HubGuard, deviceGuard: DeviceGuard, db: Db) {
  registerEndpoint(app, shareCreateEndpoint, deviceGuard, async ({ input, ctx }) => {
    const device = requireDevice(ctx);
    const limits = await sharingRepository.limits(db, device.teamSlug);
    if (input.expires_in_hours > limits.max_expiry_hours) {
      throw new AppError('sharing_limit_exceeded', `Share links may last at most ${limits.max_expiry_hours} hours.`, 400);
    }
    if (input.view_limit > limits.max_views) {
      throw new AppError('sharing_limit_exceeded', `Share links may allow at most ${limits.max_views} views.`, 400);
    }
    const share = await sharingRepository.create(db, {
      teamSlug: device.teamSlug,
      email: device.email,
      deviceId: device.deviceId,
      label: input.label,
      hours: input.expires_in_hours,
      viewLimit: input.view_limit,
    });
    return { share_id: share.id, expires_at: share.expires_at.toISOString(), view_limit: input.view_limit };
  });

  registerEndpoint(app, shareViewEndpoint, deviceGuard, async ({ input, ctx }) => {
    const viewed = await sharingRepository.view(db, requireDevice(ctx).teamSlug, input.share_id);
    if (!viewed) throw new AppError('share_unavailable', 'This share link was revoked, has expired or has no views left.', 410);
    return viewed;
  });

  registerEndpoint(app, sharingLinksEndpoint, guard, async ({ input, ctx }) => {
    const { rows, total } = await sharingRepository.activePage(db, requireHubCaller(ctx).teamSlug, {
      search: input.search_value,
      limit: input.page_size,
      offset: (input.page - 1) * input.page_size,
    });
    return {
      results: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString(), expires_at: r.expires_at.toISOString() })),
      total,
      pages: Math.ceil(total / input.page_size),
    };
  });

  registerEndpoint(app, sharingRevokeEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return { revoked: await sharingRepository.revoke(db, caller.teamSlug, input.share_ids, caller.email) };
  });

  registerEndpoint(app, sharingLimitsEndpoint, guard, async ({ ctx }) =>
    sharingRepository.limits(db, requireHubCaller(ctx).teamSlug),
  );

  registerEndpoint(app, sharingLimitsUpdateEndpoint, guard, async ({ input, ctx }) => {
    const limits = { max_expiry_hours: input.max_expiry_hours, max_views: input.max_views };
    await sharingRepository.setLimits(db, requireHubCaller(ctx).teamSlug, limits);
    return limits;
  });
}
