import type { EndpointArgs, SharingLimits, shareCreateEndpoint, sharingLinksEndpoint } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import type { DeviceCaller } from '../devices/index.ts';
import { recordHubEvents } from '../eventlogs/index.ts';
import { sharingRepository } from './sharing.repository.ts';

/** Secret sharing: the apps record links within the team's limits; the super admin oversees them. */
export function createSharingService(db: Db) {
  return {
    async create(device: DeviceCaller, input: EndpointArgs<typeof shareCreateEndpoint>) {
      const limits = await sharingRepository.limits(db, device.teamSlug);
      if (input.expires_in_hours > limits.max_expiry_hours) {
        throw new AppError('sharing_limit_exceeded', `Share links may last at most ${limits.max_expiry_hours} hours.`, 400);
      }
      if (input.view_limit > limits.max_views) {
        throw new AppError('sharing_limit_exceeded', `Share links may allow at most ${limits.max_views} views.`, 400);
      }
      const share = await db.transaction(async (tx) => {
        const created = await sharingRepository.create(tx, {
          teamSlug: device.teamSlug,
          email: device.email,
          deviceId: device.deviceId,
          label: input.label,
          hours: input.expires_in_hours,
          viewLimit: input.view_limit,
        });
        await recordHubEvents(tx, device.teamSlug, [
          {
            actor: device.email,
            actor_type: 'member',
            activity: 'share.created',
            component: 'sharing',
            target: created.id,
            device: device.deviceId,
            detail: { expires_in_hours: input.expires_in_hours, view_limit: input.view_limit },
          },
        ]);
        return created;
      });
      return { share_id: share.id, expires_at: share.expires_at.toISOString(), view_limit: input.view_limit };
    },

    async view(teamSlug: string, shareId: string) {
      const viewed = await sharingRepository.view(db, teamSlug, shareId);
      if (!viewed) throw new AppError('share_unavailable', 'This share link was revoked, has expired or has no views left.', 410);
      return viewed;
    },

    async activePage(teamSlug: string, input: EndpointArgs<typeof sharingLinksEndpoint>) {
      const { rows, total } = await sharingRepository.activePage(db, teamSlug, {
        search: input.search_value,
        limit: input.page_size,
        offset: (input.page - 1) * input.page_size,
      });
      return {
        results: rows.map((r) => ({ ...r, created_at: r.created_at.toISOString(), expires_at: r.expires_at.toISOString() })),
        total,
        pages: Math.ceil(total / input.page_size),
      };
    },

    async revoke(teamSlug: string, shareIds: string[], by: string) {
      return db.transaction(async (tx) => {
        const revoked = await sharingRepository.revoke(tx, teamSlug, shareIds, by);
        await recordHubEvents(
          tx,
          teamSlug,
          shareIds.slice(0, revoked).map((id) => ({
            actor: by,
            actor_type: 'admin' as const,
            activity: 'share.revoked',
            component: 'sharing',
            target: id,
          })),
        );
        return { revoked };
      });
    },

    limits: (teamSlug: string) => sharingRepository.limits(db, teamSlug),

    async setLimits(teamSlug: string, input: SharingLimits, by = '') {
      const limits = { max_expiry_hours: input.max_expiry_hours, max_views: input.max_views };
      await db.transaction(async (tx) => {
        await sharingRepository.setLimits(tx, teamSlug, limits);
        await recordHubEvents(tx, teamSlug, [
          { actor: by, actor_type: 'admin', activity: 'sharing.limits_updated', component: 'sharing', detail: limits },
        ]);
      });
      return limits;
    },
  };
}
