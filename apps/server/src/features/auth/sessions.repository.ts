import type { Queryable } from '@latchkey/runtime';

export interface SessionRow {
  id: string;
  user_id: string;
  team_id: string;
  absolute_expires_at: Date;
  revoked_at: Date | null;
}

export interface RefreshRow {
  token_hash: string;
  session_id: string;
  expires_at: Date;
  used_at: Date | null;
}

export const sessionsRepository = {
  async create(q: Queryable, userId: string, teamId: string, absoluteExpiresAt: Date): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      'insert into sessions (user_id, team_id, absolute_expires_at) values ($1, $2, $3) returning id',
      [userId, teamId, absoluteExpiresAt],
    );
    return (row as { id: string }).id;
  },

  async find(q: Queryable, id: string): Promise<SessionRow | undefined> {
    const [row] = await q.query<SessionRow>(
      'select id, user_id, team_id, absolute_expires_at, revoked_at from sessions where id = $1',
      [id],
    );
    return row;
  },

  async revoke(q: Queryable, id: string, reason: string): Promise<void> {
    await q.query('update sessions set revoked_at = now(), revoked_reason = $2 where id = $1 and revoked_at is null', [
      id,
      reason,
    ]);
  },

  async addRefresh(q: Queryable, tokenHash: string, sessionId: string, expiresAt: Date): Promise<void> {
    await q.query('insert into refresh_tokens (token_hash, session_id, expires_at) values ($1, $2, $3)', [
      tokenHash,
      sessionId,
      expiresAt,
    ]);
  },

  async findRefresh(q: Queryable, tokenHash: string): Promise<RefreshRow | undefined> {
    const [row] = await q.query<RefreshRow>(
      'select token_hash, session_id, expires_at, used_at from refresh_tokens where token_hash = $1',
      [tokenHash],
    );
    return row;
  },

  /** Marks a refresh token used; false when another request used it first. */
  async useRefresh(q: Queryable, tokenHash: string): Promise<boolean> {
    const rows = await q.query(
      'update refresh_tokens set used_at = now() where token_hash = $1 and used_at is null returning 1',
      [tokenHash],
    );
    return rows.length === 1;
  },
};
