import type { Queryable } from '@latchkey/runtime';

/** Password-reset links, kept as hashes; single use, short-lived. */
export const passwordResetRepository = {
  /** A new link replaces any earlier one still unused. */
  async create(q: Queryable, userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await q.query("update password_requests set used_at = now() where user_id = $1 and purpose = 'reset' and used_at is null", [
      userId,
    ]);
    await q.query("insert into password_requests (token_hash, user_id, purpose, expires_at) values ($1, $2, 'reset', $3)", [
      tokenHash,
      userId,
      expiresAt,
    ]);
  },

  /** The admin of a live link, without spending it. */
  async findValid(q: Queryable, tokenHash: string): Promise<{ user_id: string } | undefined> {
    const [row] = await q.query<{ user_id: string }>(
      `select user_id from password_requests
       where token_hash = $1 and purpose = 'reset' and used_at is null and expires_at > now()`,
      [tokenHash],
    );
    return row;
  },

  /** Spends a link; undefined when it is unknown, used or expired (two requests cannot both spend it). */
  async consume(q: Queryable, tokenHash: string): Promise<string | undefined> {
    const [row] = await q.query<{ user_id: string }>(
      `update password_requests set used_at = now()
       where token_hash = $1 and purpose = 'reset' and used_at is null and expires_at > now() returning user_id`,
      [tokenHash],
    );
    return row?.user_id;
  },

  /** A set-password token of a set_password_first reply (replaces any earlier one). */
  async createSetFirst(q: Queryable, userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await q.query(
      "update password_requests set used_at = now() where user_id = $1 and purpose = 'set_first' and used_at is null",
      [userId],
    );
    await q.query("insert into password_requests (token_hash, user_id, purpose, expires_at) values ($1, $2, 'set_first', $3)", [
      tokenHash,
      userId,
      expiresAt,
    ]);
  },

  async consumeSetFirst(q: Queryable, userId: string, tokenHash: string): Promise<boolean> {
    const rows = await q.query(
      `update password_requests set used_at = now()
       where token_hash = $1 and user_id = $2 and purpose = 'set_first' and used_at is null and expires_at > now() returning 1`,
      [tokenHash, userId],
    );
    return rows.length === 1;
  },
};
