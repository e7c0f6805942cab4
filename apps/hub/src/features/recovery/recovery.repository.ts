import {
  RECOVERY_LINK_DEFAULT_MINUTES,
  type RecoveryAdminState,
  type RecoveryRequestState,
  type RecoverySettings,
} from '@latchkey/contracts';
import { containsPattern, type Queryable } from '@latchkey/runtime';
import { hubSessionsRepository } from '../auth/index.ts';
import { devicesRepository } from '../devices/index.ts';

export interface RequestRow {
  id: string;
  email: string;
  state: RecoveryRequestState;
  created_at: Date;
  approved_by: string | null;
  link_expires_at: Date | null;
}

export interface AdminRow {
  id: string;
  email: string;
  teamuser_id: string;
  state: RecoveryAdminState;
  created_at: Date;
  accepted_at: Date | null;
  accepted_device_id: string | null;
}

const emails = (rows: { email: string }[]) => rows.map((r) => r.email);
const REQUEST_COLUMNS = 'id, email, state, created_at, approved_by, link_expires_at';
const ADMIN_COLUMNS = 'id, email, teamuser_id, state, created_at, accepted_at, accepted_device_id';

export const recoveryRepository = {
  // ── members' requests ──
  /** `created` is false when the member already had an open request (asking again returns it). */
  async openRequest(
    q: Queryable,
    teamSlug: string,
    email: string,
    deviceId: string,
  ): Promise<{ request: RequestRow; created: boolean }> {
    // One pending request per member: asking again returns the open one.
    const [created] = await q.query<RequestRow>(
      `insert into recovery_requests (team_slug, email, device_id) values ($1, $2, $3)
       on conflict (team_slug, email) where state = 'pending' do nothing returning ${REQUEST_COLUMNS}`,
      [teamSlug, email, deviceId],
    );
    if (created) return { request: created, created: true };
    const [open] = await q.query<RequestRow>(
      `select ${REQUEST_COLUMNS} from recovery_requests where team_slug = $1 and email = $2 and state = 'pending'`,
      [teamSlug, email],
    );
    return { request: open as RequestRow, created: false };
  },

  async findRequest(q: Queryable, teamSlug: string, id: string): Promise<RequestRow | undefined> {
    const [row] = await q.query<RequestRow>(`select ${REQUEST_COLUMNS} from recovery_requests where team_slug = $1 and id = $2`, [
      teamSlug,
      id,
    ]);
    return row;
  },

  async requestsPage(
    q: Queryable,
    teamSlug: string,
    o: { state: RecoveryRequestState | undefined; search: string; limit: number; offset: number },
  ) {
    const where = `team_slug = $1 and ($2::text is null or state = $2) and ($3 = '' or email like $4)`;
    const params = [teamSlug, o.state ?? null, o.search, containsPattern(o.search)];
    const rows = await q.query<RequestRow>(
      `select ${REQUEST_COLUMNS} from recovery_requests where ${where} order by created_at desc, id limit $5 offset $6`,
      [...params, o.limit, o.offset],
    );
    const [count] = await q.query<{ n: number }>(`select count(*)::int as n from recovery_requests where ${where}`, params);
    return { rows, total: count?.n ?? 0 };
  },

  async approve(q: Queryable, teamSlug: string, emails: string[], by: string, minutes: number): Promise<number> {
    const rows = await q.query(
      `update recovery_requests set state = 'approved', approved_by = $3, approved_at = now(),
         link_expires_at = now() + make_interval(mins => $4::int)
       where team_slug = $1 and email = any($2) and state = 'pending' returning id`,
      [teamSlug, emails, by, minutes],
    );
    return rows.length;
  },

  async deleteRequest(q: Queryable, teamSlug: string, id: string): Promise<void> {
    await q.query('delete from recovery_requests where team_slug = $1 and id = $2', [teamSlug, id]);
  },

  // ── recovery admins ──
  async adminsPage(
    q: Queryable,
    teamSlug: string,
    o: { state: RecoveryAdminState | undefined; search: string; limit: number | null; offset: number },
  ) {
    const where = `team_slug = $1 and ($2::text is null or state = $2) and ($3 = '' or email like $4)`;
    const params = [teamSlug, o.state ?? null, o.search, containsPattern(o.search)];
    const rows = await q.query<AdminRow>(
      `select ${ADMIN_COLUMNS} from recovery_admins where ${where} order by email limit $5 offset $6`,
      [...params, o.limit, o.offset],
    );
    const [count] = await q.query<{ n: number }>(`select count(*)::int as n from recovery_admins where ${where}`, params);
    return { rows, total: count?.n ?? 0 };
  },

  async findAdmin(q: Queryable, teamSlug: string, id: string): Promise<AdminRow | undefined> {
    const [row] = await q.query<AdminRow>(`select ${ADMIN_COLUMNS} from recovery_admins where team_slug = $1 and id = $2`, [
      teamSlug,
      id,
    ]);
    return row;
  },

  /** Null when the member is already in the recovery group (pending or active). */
  async addAdminRequest(
    q: Queryable,
    a: { teamSlug: string; email: string; teamuserId: string; by: string },
  ): Promise<AdminRow | undefined> {
    const [row] = await q.query<AdminRow>(
      `insert into recovery_admins (team_slug, email, teamuser_id, requested_by) values ($1, $2, $3, $4)
       on conflict (team_slug, email) do nothing returning ${ADMIN_COLUMNS}`,
      [a.teamSlug, a.email, a.teamuserId, a.by],
    );
    return row;
  },

  async nominationsFor(q: Queryable, teamSlug: string, email: string) {
    return q.query<{ id: string; requested_by: string; created_at: Date }>(
      `select id, requested_by, created_at from recovery_admins
       where team_slug = $1 and email = $2 and state = 'pending' order by created_at`,
      [teamSlug, email],
    );
  },

  async acceptAdmin(q: Queryable, teamSlug: string, id: string, email: string, deviceId: string): Promise<boolean> {
    const rows = await q.query(
      `update recovery_admins set state = 'active', accepted_at = now(), accepted_device_id = $4
       where team_slug = $1 and id = $2 and email = $3 and state = 'pending' returning id`,
      [teamSlug, id, email, deviceId],
    );
    return rows.length > 0;
  },

  async removeAdmin(q: Queryable, teamSlug: string, id: string, email: string): Promise<boolean> {
    const rows = await q.query('delete from recovery_admins where team_slug = $1 and id = $2 and email = $3 returning id', [
      teamSlug,
      id,
      email,
    ]);
    return rows.length > 0;
  },

  /** The server took the recovery role away: every place of this email in the team's recovery group goes. */
  async removeAdminsByEmail(q: Queryable, teamSlug: string, email: string): Promise<number> {
    const rows = await q.query('delete from recovery_admins where team_slug = $1 and email = $2 returning id', [
      teamSlug,
      email.toLowerCase(),
    ]);
    return rows.length;
  },

  /** The accepting device still holds its key: the group secret was encrypted to it. */
  async adminDeviceHasKey(q: Queryable, deviceId: string): Promise<boolean> {
    return devicesRepository.hasKey(q, deviceId);
  },

  /**
   * Who hears of a new recovery request, by the team's setting: its active recovery admins, the
   * super admins this Hub knows (those who have signed in to it from the console), or the list.
   */
  async notificationRecipients(q: Queryable, teamSlug: string): Promise<string[]> {
    const settings = await recoveryRepository.settings(q, teamSlug);
    switch (settings.recovery_notification_recipient_type) {
      case 'custom':
        return settings.recovery_notification_recipient_emails;
      case 'recovery_admins':
        return emails(
          await q.query<{ email: string }>(
            `select email from recovery_admins where team_slug = $1 and state = 'active' order by email`,
            [teamSlug],
          ),
        );
      case 'super_admins':
        return hubSessionsRepository.superAdminEmails(q, teamSlug);
    }
  },

  // ── settings ──
  async settings(q: Queryable, teamSlug: string): Promise<RecoverySettings> {
    const [row] = await q.query<{ link_expiration_period: number; recipient_type: string; recipient_emails: string[] }>(
      'select link_expiration_period, recipient_type, recipient_emails from recovery_settings where team_slug = $1',
      [teamSlug],
    );
    return {
      link_expiration_period: row?.link_expiration_period ?? RECOVERY_LINK_DEFAULT_MINUTES,
      recovery_notification_recipient_type: (row?.recipient_type ??
        'recovery_admins') as RecoverySettings['recovery_notification_recipient_type'],
      recovery_notification_recipient_emails: row?.recipient_emails ?? [],
    };
  },

  /** Each setting is written on its own, so two admins saving different settings never undo each other. */
  async setLinkExpiration(q: Queryable, teamSlug: string, minutes: number): Promise<void> {
    await q.query(
      `insert into recovery_settings (team_slug, link_expiration_period, recipient_type) values ($1, $2, 'recovery_admins')
       on conflict (team_slug) do update set link_expiration_period = excluded.link_expiration_period, updated_at = now()`,
      [teamSlug, minutes],
    );
  },

  async setRecipients(q: Queryable, teamSlug: string, type: string, emails: string[]): Promise<void> {
    await q.query(
      `insert into recovery_settings (team_slug, link_expiration_period, recipient_type, recipient_emails)
       values ($1, $2, $3, $4)
       on conflict (team_slug) do update set recipient_type = excluded.recipient_type,
         recipient_emails = excluded.recipient_emails, updated_at = now()`,
      [teamSlug, RECOVERY_LINK_DEFAULT_MINUTES, type, emails],
    );
  },
};
