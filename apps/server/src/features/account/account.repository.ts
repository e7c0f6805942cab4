import type { Queryable } from '@latchkey/runtime';

/** Backup codes and second factors of one admin; access is decided by the services. */
export const accountRepository = {
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

  /**
   * Forgets the admin's backup codes, security keys and their open challenges (a reset of their
   * sign-in): a key left behind would still be asked for after the password they set next.
   */
  async clearSecondFactors(q: Queryable, userId: string): Promise<void> {
    await q.query('delete from recovery_codes where user_id = $1', [userId]);
    await q.query('delete from security_keys where user_id = $1', [userId]);
    await q.query('delete from webauthn_challenges where user_id = $1', [userId]);
  },
};
