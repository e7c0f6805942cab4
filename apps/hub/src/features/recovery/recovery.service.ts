import type {
  EndpointArgs,
  recoveryAdminsEndpoint,
  recoveryCreateAdminRequestEndpoint,
  recoveryNotificationEndpoint,
  recoveryRequestsEndpoint,
} from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import type { HubCaller } from '../../http/caller.ts';
import type { RoleCheck } from '../auth/index.ts';
import { type DeviceCaller, devicesRepository } from '../devices/index.ts';
import { recordHubEvents } from '../eventlogs/index.ts';
import { registrationsRepository } from '../registrations/index.ts';
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
export function createRecoveryService(db: Db, notifier: RecoveryNotifier, roleCheck: RoleCheck) {
  /**
   * The licence server is the source of truth for roles: only a holder of recovery_agent there may
   * join the recovery group. A server that cannot answer refuses the nomination (fail closed).
   */
  async function requireRecoveryRole(caller: Pick<HubCaller, 'registrationId' | 'teamSlug'>, email: string) {
    const registration = await registrationsRepository.findById(db, caller.registrationId);
    const verdict = registration ? await roleCheck(registration, caller.teamSlug, email) : 'unreachable';
    if (verdict === 'unreachable')
      throw new AppError(
        'server_unreachable',
        'The Hub cannot reach the licence server to confirm this person holds the recovery role. Try again shortly.',
      ).shows('errors.recovery_role_unconfirmed');
    if (!verdict.scopes.includes('recovery_agent'))
      throw new AppError(
        'recovery_role_required',
        'Only an administrator with the Recovery admin role can join the recovery group.',
        409,
      ).shows('errors.recovery_role_required');
  }

  return {
    // ── the apps ──
    async openRequest(device: DeviceCaller) {
      // The recipients are told of a new request only; their mail is queued with it and leaves in the
      // background, so a slow or failing SMTP server never holds up the app.
      const { request } = await db.transaction(async (tx) => {
        const opened = await repo.openRequest(tx, device.teamSlug, device.email, device.deviceId);
        if (opened.created) {
          await notifier.requestOpened(tx, device.teamSlug, opened.request);
          await recordHubEvents(tx, device.teamSlug, [
            {
              actor: device.email,
              actor_type: 'member',
              activity: 'recovery.requested',
              component: 'recovery',
              device: device.deviceId,
            },
          ]);
        }
        return opened;
      });
      return { request_id: request.id, state: request.state };
    },

    async requestStatus(device: DeviceCaller, requestId: string) {
      const request = await repo.findRequest(db, device.teamSlug, requestId);
      // Another member's request is as unknown as a missing one.
      if (!request || request.email !== device.email) throw notFound('recovery request', 'errors.recovery_request_not_found');
      return { state: request.state, link_expires_at: iso(request.link_expires_at) };
    },

    async nominations(device: DeviceCaller) {
      const rows = await repo.nominationsFor(db, device.teamSlug, device.email);
      return {
        requests: rows.map((r) => ({ request_id: r.id, requested_by: r.requested_by, created_at: r.created_at.toISOString() })),
      };
    },

    async acceptAdmin(device: DeviceCaller, requestId: string) {
      if (!device.hasKey) {
        throw new AppError('user_key_missing', 'Only a device with a public key can hold the recovery group secret.', 400);
      }
      const accepted = await db.transaction(async (tx) => {
        const done = await repo.acceptAdmin(tx, device.teamSlug, requestId, device.email, device.deviceId);
        if (done)
          await recordHubEvents(tx, device.teamSlug, [
            {
              actor: device.email,
              actor_type: 'member',
              activity: 'recovery.admin_accepted',
              component: 'recovery',
              device: device.deviceId,
            },
          ]);
        return done;
      });
      if (!accepted) throw notFound('pending recovery admin request for this member', 'errors.recovery_admin_request_not_found');
      return { state: 'active' as const };
    },

    // ── members' requests: super admin or recovery admin ──
    async requestsPage(team: string, input: EndpointArgs<typeof recoveryRequestsEndpoint>) {
      const { rows, total } = await repo.requestsPage(db, team, {
        state: input.state,
        search: input.search_value,
        limit: input.page_size,
        offset: (input.page - 1) * input.page_size,
      });
      return { results: rows.map(toRequest), total, pages: Math.ceil(total / input.page_size) };
    },

    approve(team: string, emails: string[], by: string) {
      return db.transaction(async (tx) => {
        const { link_expiration_period } = await repo.settings(tx, team);
        const approved = await repo.approve(tx, team, emails, by, link_expiration_period);
        await recordHubEvents(
          tx,
          team,
          emails.map((email) => ({
            actor: by,
            actor_type: 'admin' as const,
            activity: 'recovery.approved',
            component: 'recovery',
            target: email,
          })),
        );
        return { approved };
      });
    },

    deleteRequest(team: string, id: string, force: boolean) {
      return db.transaction(async (tx) => {
        const request = await repo.findRequest(tx, team, id);
        if (!request) throw notFound('recovery request', 'errors.recovery_request_not_found');
        const live = request.state === 'approved' && (request.link_expires_at?.getTime() ?? 0) > Date.now();
        if (live && !force) {
          throw new AppError('recovery_in_progress', 'This request has a recovery link that is still valid.', 409).shows(
            'errors.recovery_in_progress',
          );
        }
        await repo.deleteRequest(tx, team, id);
        return { deleted: true as const };
      });
    },

    // ── the recovery group: super admin ──
    async adminsPage(team: string, input: EndpointArgs<typeof recoveryAdminsEndpoint>) {
      const all = input.fetch_all_admins;
      const { rows, total } = await repo.adminsPage(db, team, {
        state: input.state,
        search: input.search_email,
        limit: all ? null : input.page_size,
        offset: all ? 0 : (input.page - 1) * input.page_size,
      });
      return { results: rows.map(toAdmin), total, pages: all ? 1 : Math.ceil(total / input.page_size) };
    },

    async addAdminRequest(
      caller: Pick<HubCaller, 'registrationId' | 'teamSlug' | 'email'>,
      input: EndpointArgs<typeof recoveryCreateAdminRequestEndpoint>,
    ) {
      const { teamSlug: team, email: by } = caller;
      await requireRecoveryRole(caller, input.email);
      const withKeys = await devicesRepository.emailsWithKeys(db, team, [input.email]);
      if (!withKeys.has(input.email)) {
        throw new AppError('user_key_missing', 'This member has no device with a public key yet.', 400).shows(
          'errors.member_no_device_key',
        );
      }
      const admin = await db.transaction(async (tx) => {
        const added = await repo.addAdminRequest(tx, { teamSlug: team, email: input.email, teamuserId: input.teamuser_id, by });
        if (added)
          await recordHubEvents(tx, team, [
            { actor: by, actor_type: 'admin', activity: 'recovery.admin_nominated', component: 'recovery', target: input.email },
          ]);
        return added;
      });
      if (!admin)
        throw new AppError('admin_already_exists', 'This member is already in the recovery group.', 409).shows(
          'errors.already_recovery_admin',
        );
      return { request: toAdminRequest(admin) };
    },

    async pendingAdminRequests(team: string) {
      const { rows } = await repo.adminsPage(db, team, { state: 'pending', search: '', limit: null, offset: 0 });
      return { requests: rows.map(toAdminRequest) };
    },

    async removeAdmin(team: string, uid: string, email: string) {
      const removed = await repo.removeAdmin(db, team, uid, email);
      if (!removed) throw notFound('recovery admin', 'errors.recovery_admin_not_found');
      return { removed: true as const };
    },

    async verifyUserKeys(team: string, emails: string[]) {
      const withKeys = await devicesRepository.emailsWithKeys(db, team, emails);
      return { results: emails.map((email) => ({ email, verified: withKeys.has(email) })) };
    },

    async verifyMemberSecret(team: string, uid: string, email: string) {
      const admin = await repo.findAdmin(db, team, uid);
      if (!admin || admin.email !== email) throw notFound('recovery admin', 'errors.recovery_admin_not_found');
      const verified =
        admin.state === 'active' &&
        admin.accepted_device_id !== null &&
        (await repo.adminDeviceHasKey(db, admin.accepted_device_id));
      return { verified };
    },

    // ── settings: super admin ──
    settings: (team: string) => repo.settings(db, team),

    async setLinkExpiration(team: string, period: Parameters<typeof repo.setLinkExpiration>[2]) {
      await repo.setLinkExpiration(db, team, period);
      return repo.settings(db, team);
    },

    async setRecipients(team: string, input: EndpointArgs<typeof recoveryNotificationEndpoint>) {
      // Emails matter only for a custom list; other types keep none.
      const emails = input.recovery_notification_recipient_type === 'custom' ? input.recovery_notification_recipient_emails : [];
      await repo.setRecipients(db, team, input.recovery_notification_recipient_type, emails);
      return repo.settings(db, team);
    },
  };
}
