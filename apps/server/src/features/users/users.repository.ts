import type { Queryable } from '@latchkey/runtime';

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

/** The users table (console accounts): read by sign-in, account security and the team screens alike. */
export const usersRepository = {
  async findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
    const [row] = await q.query<UserRow>(`select ${USER_COLUMNS} from users where email = $1`, [email]);
    return row;
  },

  async findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
    const [row] = await q.query<UserRow>(`select ${USER_COLUMNS} from users where id = $1`, [id]);
    return row;
  },

  /**
   * The users with these ids, ordered by email; with `pattern` (a `containsPattern`), only those
   * whose email or name contains it. One lookup for a list another room owns (administrators).
   */
  async findUsersByIds(
    q: Queryable,
    ids: readonly string[],
    pattern?: string,
  ): Promise<{ id: string; email: string; name: string; has_password: boolean }[]> {
    if (ids.length === 0) return [];
    const params: unknown[] = [ids];
    let where = 'id = any($1::uuid[])';
    if (pattern) {
      params.push(pattern);
      where += ` and lower(email || ' ' || name) like $2`;
    }
    return q.query(
      `select id, email, name, password_hash is not null as has_password from users where ${where} order by email`,
      params,
    );
  },

  /** The accounts of an email, whatever its case (an IdP's NameID may differ in case from the stored email). */
  async findUsersByEmailIgnoringCase(q: Queryable, email: string): Promise<{ id: string; email: string }[]> {
    return q.query('select id, email from users where lower(email) = lower($1)', [email]);
  },

  /** The account of this email, made when there is none (an administrator added by email). */
  async ensureUser(q: Queryable, email: string): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      `insert into users (email) values ($1) on conflict (email) do update set email = excluded.email returning id`,
      [email],
    );
    return row?.id as string;
  },

  /** Clears the password and the authenticator (an administrator's sign-in reset). */
  async clearSignIn(q: Queryable, userId: string): Promise<void> {
    await q.query(
      `update users set password_hash = null, totp_secret = null, totp_pending_secret = null, totp_last_step = null
       where id = $1`,
      [userId],
    );
  },

  /**
   * Records the step of an accepted authenticator code, only if it is later than the last one:
   * two requests with the same code cannot both pass. False when the step was already used.
   */
  async useTotpStep(q: Queryable, userId: string, step: number): Promise<boolean> {
    const rows = await q.query(
      'update users set totp_last_step = $2 where id = $1 and (totp_last_step is null or totp_last_step < $2) returning 1',
      [userId, step],
    );
    return rows.length === 1;
  },

  /** Only if it has not changed meanwhile (a concurrent re-registration wins). */
  async resealTotpSecret(q: Queryable, userId: string, from: string, to: string): Promise<void> {
    await q.query('update users set totp_secret = $3 where id = $1 and totp_secret = $2', [userId, from, to]);
  },

  async setPendingTotp(q: Queryable, userId: string, sealed: string): Promise<void> {
    await q.query('update users set totp_pending_secret = $2 where id = $1', [userId, sealed]);
  },

  async pendingTotp(q: Queryable, userId: string): Promise<string | null> {
    const [row] = await q.query<{ s: string | null }>('select totp_pending_secret as s from users where id = $1', [userId]);
    return row?.s ?? null;
  },

  /** Makes the pending secret the authenticator; its confirming step counts as used. */
  async activatePendingTotp(q: Queryable, userId: string, step: number): Promise<boolean> {
    const rows = await q.query(
      `update users set totp_secret = totp_pending_secret, totp_pending_secret = null, totp_last_step = $2
       where id = $1 and totp_pending_secret is not null returning 1`,
      [userId, step],
    );
    return rows.length === 1;
  },

  async setPassword(q: Queryable, userId: string, passwordHash: string): Promise<void> {
    await q.query('update users set password_hash = $2, password_changed_at = now() where id = $1', [userId, passwordHash]);
  },

  async setAuthType(q: Queryable, userId: string, authType: 'password' | 'otp'): Promise<void> {
    await q.query('update users set auth_type = $2 where id = $1', [userId, authType]);
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
