import type { Queryable } from '@latchkey/runtime';
import { plainDetail, recordEvent, type ServerEvent } from '../eventlogs/index.ts';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  auth_type: 'password' | 'otp';
  /** Sealed authenticator secret; null when no authenticator is set up. */
  totp_secret: string | null;
  totp_last_step: string | number | null;
}

const USER_COLUMNS = 'id, email, name, password_hash, auth_type, totp_secret, totp_last_step';

/** The users table and its security events: read by sign-in, account security and the team screens alike. */
export const usersRepository = {
  async findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
    const [row] = await q.query<UserRow>(`select ${USER_COLUMNS} from users where email = $1`, [email]);
    return row;
  },

  async findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
    const [row] = await q.query<UserRow>(`select ${USER_COLUMNS} from users where id = $1`, [id]);
    return row;
  },

  async recordSecurityEvent(
    q: Queryable,
    event: {
      kind: string;
      email?: string;
      userId?: string;
      teamId?: string;
      ip?: string;
      /** By default a failure when the kind says so (`sign_in_failed`, `…_refused`). */
      outcome?: ServerEvent['outcome'];
      detail?: Record<string, unknown>;
    },
  ): Promise<void> {
    await q.query('insert into security_events (kind, email, user_id, team_id, ip, detail) values ($1, $2, $3, $4, $5, $6)', [
      event.kind,
      event.email ?? null,
      event.userId ?? null,
      event.teamId ?? null,
      event.ip ?? null,
      JSON.stringify(event.detail ?? {}),
    ]);
    // The team's event log gets the same: sign-ins and their failures, sign-outs, resets.
    if (event.teamId) {
      await recordEvent(q, {
        teamId: event.teamId,
        actor: event.email ?? '',
        activity: `auth.${event.kind}`,
        component: 'auth',
        ip: event.ip,
        outcome: event.outcome ?? (/failed|refused/.test(event.kind) ? 'failure' : 'success'),
        detail: plainDetail(event.detail),
      });
    }
  },

  /** Whether each of these users has a password and an authenticator, by id; never the secrets themselves. */
  async credentialsSet(q: Queryable, ids: string[]): Promise<Map<string, { has_password: boolean; has_authenticator: boolean }>> {
    if (ids.length === 0) return new Map();
    const rows = await q.query<{ id: string; has_password: boolean; has_authenticator: boolean }>(
      `select id, password_hash is not null as has_password, totp_secret is not null as has_authenticator
       from users where id = any($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, { has_password: r.has_password, has_authenticator: r.has_authenticator }]));
  },

  /** The ids of the users with this email in any case. */
  async idsByEmailAnyCase(q: Queryable, email: string): Promise<string[]> {
    const rows = await q.query<{ id: string }>('select id from users where lower(email) = lower($1)', [email]);
    return rows.map((r) => r.id);
  },
};
