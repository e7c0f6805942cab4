import {
  memberSecretVerifyEndpoint,
  recoveryAdminAcceptEndpoint,
  recoveryAdminNominationsEndpoint,
  recoveryAdminsEndpoint,
  recoveryApproveEndpoint,
  recoveryCreateAdminRequestEndpoint,
  recoveryDeleteEndpoint,
  recoveryFetchAdminRequestsEndpoint,
  recoveryLinkExpirationEndpoint,
  recoveryNotificationEndpoint,
  recoveryRemoveAdminEndpoint,
  recoveryRequestCreateEndpoint,
  recoveryRequestStatusEndpoint,
  recoveryRequestsEndpoint,
  recoverySettingsEndpoint,
  userKeyVerifyEndpoint,
} from '@latchkey/contracts';
import { AppError, type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type HubGuard, requireHubCaller } from '../../http/guard.ts';
import { type DeviceGuard, requireDevice } from '../devices/device-guard.ts';
import { devicesRepository } from '../devices/devices.repository.ts';
import { type AdminRow, type RequestRow, recoveryRepository as repo } from './recovery.repository.ts';
import type { RecoveryNotifier } from './recovery-notifier.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const toRequest = (r: RequestRow) => ({ ...r, created_at: r.created_at.toISOString(), link_expires_at: iso(r.link_expires_at) });
const toAdmin = ({ accepted_device_id: _, ...a }: AdminRow) => ({
  ...a,
  created_at: a.created_at.toISOString(),
  accepted_at: iso(a.accepted_at),
});
const toAdminRequest = (a: AdminRow) => ({ id: a.id, state: a.state, user: { email: a.email } });
const notFound = (what: string, key: string) => new AppError('not_found', `No such ${what}.`, 404).shows(key);

/**
 * Account recovery: members' apps ask for recovery and recovery admins approve; the super admin
 * manages the recovery group (members nominated by request, who approve from their device) and
 * the link expiry and notification settings.
 */
export function recoveryRoutes(
  app: FastifyInstance,
  guard: HubGuard,
  deviceGuard: DeviceGuard,
  db: Db,
  notifier: RecoveryNotifier,
) {
  // ── the apps ──
  registerEndpoint(app, recoveryRequestCreateEndpoint, deviceGuard, async ({ ctx }) => {
    const device = requireDevice(ctx);
    // The recipients are told of a new request only; their mail is queued with it and leaves in the
    // background, so a slow or failing SMTP server never holds up the app.
    const { request } = await db.transaction(async (tx) => {
      const opened = await repo.openRequest(tx, device.teamSlug, device.email, device.deviceId);
      if (opened.created) await notifier.requestOpened(tx, device.teamSlug, opened.request);
      return opened;
    });
    return { request_id: request.id, state: request.state };
  });

  registerEndpoint(app, recoveryRequestStatusEndpoint, deviceGuard, async ({ input, ctx }) => {
    const device = requireDevice(ctx);
    const request = await repo.findRequest(db, device.teamSlug, input.request_id);
    // Another member's request is as unknown as a missing one.
    if (!request || request.email !== device.email) throw notFound('recovery request', 'errors.recovery_request_not_found');
    return { state: request.state, link_expires_at: iso(request.link_expires_at) };
  });

  registerEndpoint(app, recoveryAdminNominationsEndpoint, deviceGuard, async ({ ctx }) => {
    const device = requireDevice(ctx);
    const rows = await repo.nominationsFor(db, device.teamSlug, device.email);
    return {
      requests: rows.map((r) => ({ request_id: r.id, requested_by: r.requested_by, created_at: r.created_at.toISOString() })),
    };
  });

  registerEndpoint(app, recoveryAdminAcceptEndpoint, deviceGuard, async ({ input, ctx }) => {
    const device = requireDevice(ctx);
    if (!device.hasKey) {
      throw new AppError('user_key_missing', 'Only a device with a public key can hold the recovery group secret.', 400);
    }
    const accepted = await repo.acceptAdmin(db, device.teamSlug, input.request_id, device.email, device.deviceId);
    if (!accepted) throw notFound('pending recovery admin request for this member', 'errors.recovery_admin_request_not_found');
    return { state: 'active' };
  });

  // ── members' requests: super admin or recovery admin ──
  registerEndpoint(app, recoveryRequestsEndpoint, guard, async ({ input, ctx }) => {
    const { rows, total } = await repo.requestsPage(db, requireHubCaller(ctx).teamSlug, {
      state: input.state,
      search: input.search_value,
      limit: input.page_size,
      offset: (input.page - 1) * input.page_size,
    });
    return { results: rows.map(toRequest), total, pages: Math.ceil(total / input.page_size) };
  });

  registerEndpoint(app, recoveryApproveEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    return db.transaction(async (tx) => {
      const { link_expiration_period } = await repo.settings(tx, caller.teamSlug);
      return { approved: await repo.approve(tx, caller.teamSlug, input.emails, caller.email, link_expiration_period) };
    });
  });

  registerEndpoint(app, recoveryDeleteEndpoint, guard, async ({ input, ctx }) => {
    const team = requireHubCaller(ctx).teamSlug;
    return db.transaction(async (tx) => {
      const request = await repo.findRequest(tx, team, input.id);
      if (!request) throw notFound('recovery request', 'errors.recovery_request_not_found');
      const live = request.state === 'approved' && (request.link_expires_at?.getTime() ?? 0) > Date.now();
      if (live && !input.force_delete) {
        throw new AppError('recovery_in_progress', 'This request has a recovery link that is still valid.', 409).shows(
          'errors.recovery_in_progress',
        );
      }
      await repo.deleteRequest(tx, team, input.id);
      return { deleted: true as const };
    });
  });

  // ── the recovery group: super admin ──
  registerEndpoint(app, recoveryAdminsEndpoint, guard, async ({ input, ctx }) => {
    const all = input.fetch_all_admins;
    const { rows, total } = await repo.adminsPage(db, requireHubCaller(ctx).teamSlug, {
      state: input.state,
      search: input.search_email,
      limit: all ? null : input.page_size,
      offset: all ? 0 : (input.page - 1) * input.page_size,
    });
    return { results: rows.map(toAdmin), total, pages: all ? 1 : Math.ceil(total / input.page_size) };
  });

  registerEndpoint(app, recoveryCreateAdminRequestEndpoint, guard, async ({ input, ctx }) => {
    const caller = requireHubCaller(ctx);
    const withKeys = await devicesRepository.emailsWithKeys(db, caller.teamSlug, [input.email]);
    if (!withKeys.has(input.email)) {
      throw new AppError('user_key_missing', 'This member has no device with a public key yet.', 400).shows(
        'errors.member_no_device_key',
      );
    }
    const admin = await repo.addAdminRequest(db, {
      teamSlug: caller.teamSlug,
      email: input.email,
      teamuserId: input.teamuser_id,
      by: caller.email,
    });
    if (!admin)
      throw new AppError('admin_already_exists', 'This member is already in the recovery group.', 409).shows(
        'errors.already_recovery_admin',
      );
    return { request: toAdminRequest(admin) };
  });

  registerEndpoint(app, recoveryFetchAdminRequestsEndpoint, guard, async ({ ctx }) => {
    const { rows } = await repo.adminsPage(db, requireHubCaller(ctx).teamSlug, {
      state: 'pending',
      search: '',
      limit: null,
      offset: 0,
    });
    return { requests: rows.map(toAdminRequest) };
  });

  registerEndpoint(app, recoveryRemoveAdminEndpoint, guard, async ({ input, ctx }) => {
    const removed = await repo.removeAdmin(db, requireHubCaller(ctx).teamSlug, input.uid, input.email);
    if (!removed) throw notFound('recovery admin', 'errors.recovery_admin_not_found');
    return { removed: true as const };
  });

  registerEndpoint(app, userKeyVerifyEndpoint, guard, async ({ input, ctx }) => {
    const withKeys = await devicesRepository.emailsWithKeys(db, requireHubCaller(ctx).teamSlug, input.emails);
    return { results: input.emails.map((email) => ({ email, verified: withKeys.has(email) })) };
  });

  registerEndpoint(app, memberSecretVerifyEndpoint, guard, async ({ input, ctx }) => {
    const admin = await repo.findAdmin(db, requireHubCaller(ctx).teamSlug, input.uid);
    if (!admin || admin.email !== input.email) throw notFound('recovery admin', 'errors.recovery_admin_not_found');
    const verified =
      admin.state === 'active' &&
      admin.accepted_device_id !== null &&
      (await repo.adminDeviceHasKey(db, admin.accepted_device_id));
    return { verified };
  });

  // ── settings: super admin ──
  registerEndpoint(app, recoverySettingsEndpoint, guard, async ({ ctx }) => repo.settings(db, requireHubCaller(ctx).teamSlug));

  registerEndpoint(app, recoveryLinkExpirationEndpoint, guard, async ({ input, ctx }) => {
    const team = requireHubCaller(ctx).teamSlug;
    await repo.setLinkExpiration(db, team, input.link_expiration_period);
    return repo.settings(db, team);
  });

  registerEndpoint(app, recoveryNotificationEndpoint, guard, async ({ input, ctx }) => {
    const team = requireHubCaller(ctx).teamSlug;
    // Emails matter only for a custom list; other types keep none.
    const emails = input.recovery_notification_recipient_type === 'custom' ? input.recovery_notification_recipient_emails : [];
    await repo.setRecipients(db, team, input.recovery_notification_recipient_type, emails);
    return repo.settings(db, team);
  });
}
