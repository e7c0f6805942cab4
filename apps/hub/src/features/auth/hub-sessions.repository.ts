import type { Scope } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface HubSessionRow {
  id: string;
  user_id: string;
  email: string;
  team_slug: string;
  scopes: Scope[];
  absolute_expires_at: Date;
  revoked_at: Date | null;
}

export interface HubRefreshRow {
  session_id: string;
  expires_at: Date;
  used_at: Date | null;
}

export interface NewHubSession {
  registrationId: string;
  userId: string;
  email: string;
  teamSlug: string;
  scopes: Scope[];
  device: unknown;
  absoluteExpiresAt: Date;
}

export const hubSessionsRepository = {
  async create(q: Queryable, s: NewHubSession): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      `insert into hub_sessions (registration_id, user_id, email, team_slug, scopes, device, absolute_expires_at)
       values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [s.registrationId, s.userId, s.email, s.teamSlug, s.scopes, JSON.stringify(s.device ?? {}), s.absoluteExpiresAt],
    );
    return (row as { id: string }).id;
  },

  async find(q: Queryable, id: string): Promise<HubSessionRow | undefined> {
    const [row] = await q.query<HubSessionRow>(
      'select id, user_id, email, team_slug, scopes, absolute_expires_at, revoked_at from hub_sessions where id = $1',
      [id],
    );
    return row;
  },

  async revoke(q: Queryable, id: string, reason: string): Promise<void> {
    await q.query('update hub_sessions set revoked_at = now(), revoked_reason = $2 where id = $1 and revoked_at is null', [
      id,
      reason,
    ]);
  },

  async addRefresh(q: Queryable, tokenHash: string, sessionId: string, expiresAt: Date): Promise<void> {
    await q.query('insert into hub_refresh_tokens (token_hash, session_id, expires_at) values ($1, $2, $3)', [
      tokenHash,
      sessionId,
      expiresAt,
    ]);
  },

  async findRefresh(q: Queryable, tokenHash: string): Promise<HubRefreshRow | undefined> {
    const [row] = await q.query<HubRefreshRow>(
      'select session_id, expires_at, used_at from hub_refresh_tokens where token_hash = $1',
      [tokenHash],
    );
    return row;
  },

  /** Marks a refresh token used; false when another request used it first. */
  async useRefresh(q: Queryable, tokenHash: string): Promise<boolean> {
    const rows = await q.query(
      'update hub_refresh_tokens set used_at = now() where token_hash = $1 and used_at is null returning 1',
      [tokenHash],
    );
    return rows.length === 1;
  },
};
