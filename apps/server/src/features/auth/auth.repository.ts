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

export const authRepository = {
  async findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
    const [row] = await q.query<UserRow>(`select ${USER_COLUMNS} from users where email = $1`, [email]);
    return row;
  },

  async findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
    const [row] = await q.query<UserRow>(`select ${USER_COLUMNS} from users where id = $1`, [id]);
    return row;
  },

  async createEmailCode(q: Queryable, userId: string, teamId: string, codeHash: string, expiresAt: Date): Promise<void> {
    // A new code replaces any earlier one still waiting.
    await q.query('update email_codes set used_at = now() where user_id = $1 and team_id = $2 and used_at is null', [
      userId,
      teamId,
    ]);
    await q.query('insert into email_codes (user_id, team_id, code_hash, expires_at) values ($1, $2, $3, $4)', [
      userId,
      teamId,
      codeHash,
      expiresAt,
    ]);
  },

  async latestEmailCode(q: Queryable, userId: string, teamId: string) {
    const [row] = await q.query<{ id: string; code_hash: string; attempts: number; expires_at: Date }>(
      `select id, code_hash, attempts, expires_at from email_codes
       where user_id = $1 and team_id = $2 and used_at is null order by created_at desc limit 1`,
      [userId, teamId],
    );
    return row;
  },

  /**
   * Spends one of a code's attempts before it is compared, in one statement, so parallel guesses
   * cannot all read the same count; false when none are left.
   */
  async spendEmailCodeAttempt(q: Queryable, id: string, maxAttempts: number): Promise<boolean> {
    const rows = await q.query('update email_codes set attempts = attempts + 1 where id = $1 and attempts < $2 returning 1', [
      id,
      maxAttempts,
    ]);
    return rows.length === 1;
  },

  /** Consumes a code once; false when it was already used. */
  async useEmailCode(q: Queryable, id: string): Promise<boolean> {
    const rows = await q.query('update email_codes set used_at = now() where id = $1 and used_at is null returning 1', [id]);
    return rows.length === 1;
  },

  async recordSecurityEvent(
    q: Queryable,
    event: { kind: string; email?: string; userId?: string; teamId?: string; ip?: string; detail?: Record<string, unknown> },
  ): Promise<void> {
    await q.query('insert into security_events (kind, email, user_id, team_id, ip, detail) values ($1, $2, $3, $4, $5, $6)', [
      event.kind,
      event.email ?? null,
      event.userId ?? null,
      event.teamId ?? null,
      event.ip ?? null,
      JSON.stringify(event.detail ?? {}),
    ]);
  },
};
