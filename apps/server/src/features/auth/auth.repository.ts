import type { Queryable } from '@latchkey/runtime';

export const authRepository = {
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
};
