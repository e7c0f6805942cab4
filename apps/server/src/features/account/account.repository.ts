import type { Queryable } from '@latchkey/runtime';

/** Authenticator, backup codes and password rows of one admin; access is decided by the services. */
export const accountRepository = {
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

  /**
   * Marks a backup code used; false when it does not exist or was used already. `codeHashes` are
   * its keyed hashes under each accepted key: at most one row matches, and only the key holder can
   * compute them, so the lookup's timing tells an attacker nothing.
   */
  async useRecoveryCode(q: Queryable, userId: string, codeHashes: string[]): Promise<boolean> {
    const rows = await q.query(
      `update recovery_codes set used_at = now()
        where id = (select id from recovery_codes where user_id = $1 and code_hash = any($2::text[]) and used_at is null limit 1)
        returning 1`,
      [userId, codeHashes],
    );
    return rows.length === 1;
  },

  /** Backup codes stored before migration 0014, as an unkeyed hash (without the keyed prefix). */
  async unkeyedRecoveryCodes(q: Queryable): Promise<{ id: string; code_hash: string }[]> {
    return q.query("select id::text, code_hash from recovery_codes where code_hash not like 'k1.%'");
  },

  async rekeyRecoveryCode(q: Queryable, id: string, from: string, to: string): Promise<void> {
    await q.query('update recovery_codes set code_hash = $3 where id::text = $1 and code_hash = $2', [id, from, to]);
  },

  /** Only if it has not changed meanwhile (a concurrent re-registration wins). */
  async resealTotpSecret(q: Queryable, userId: string, from: string, to: string): Promise<void> {
    await q.query('update users set totp_secret = $3 where id = $1 and totp_secret = $2', [userId, from, to]);
  },

  async recoveryCodesLeft(q: Queryable, userId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>(
      'select count(*)::int as n from recovery_codes where user_id = $1 and used_at is null',
      [userId],
    );
    return row?.n ?? 0;
  },

  async replaceRecoveryCodes(q: Queryable, userId: string, hashes: string[]): Promise<void> {
    await q.query('delete from recovery_codes where user_id = $1', [userId]);
    await q.query('insert into recovery_codes (user_id, code_hash) select $1, unnest($2::text[])', [userId, hashes]);
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

  /** Ends every session of the admin but `keepSessionId` (after a password change). */
  async revokeOtherSessions(q: Queryable, userId: string, keepSessionId: string, reason: string): Promise<string[]> {
    const rows = await q.query<{ id: string }>(
      `update sessions set revoked_at = now(), revoked_reason = $3
       where user_id = $1 and id <> $2 and revoked_at is null returning id`,
      [userId, keepSessionId, reason],
    );
    return rows.map((r) => r.id);
  },
};
