import type { Scope } from '@latchkey/contracts';
import { containsPattern, type Queryable } from '@latchkey/runtime';

export interface AdminRow {
  user_id: string;
  email: string;
  name: string;
  scopes: Scope[];
}

export const adminsRepository = {
  async list(q: Queryable, teamId: string, search?: string): Promise<AdminRow[]> {
    const params: unknown[] = [teamId];
    let where = 'ta.team_id = $1 and cardinality(ta.scopes) > 0';
    if (search) {
      params.push(containsPattern(search));
      where += ` and lower(u.email || ' ' || u.name) like $2`;
    }
    return q.query<AdminRow>(
      `select u.id as user_id, u.email, u.name, ta.scopes from team_admins ta join users u on u.id = ta.user_id
       where ${where} order by u.email`,
      params,
    );
  },

  /** The team's administrators, locked until the transaction ends (two removals cannot both pass the last-super-admin check). */
  async lockAll(q: Queryable, teamId: string): Promise<AdminRow[]> {
    return q.query<AdminRow>(
      `select u.id as user_id, u.email, u.name, ta.scopes from team_admins ta join users u on u.id = ta.user_id
       where ta.team_id = $1 order by u.email for update of ta`,
      [teamId],
    );
  },

  async findUserId(q: Queryable, email: string): Promise<string | undefined> {
    const [row] = await q.query<{ id: string }>('select id from users where email = $1', [email]);
    return row?.id;
  },

  /** Whether the person administers any team but this one (their account is then not this team's to reset). */
  async administersOtherTeam(q: Queryable, teamId: string, userId: string): Promise<boolean> {
    const rows = await q.query(
      'select 1 from team_admins where user_id = $1 and team_id <> $2 and cardinality(scopes) > 0 limit 1',
      [userId, teamId],
    );
    return rows.length > 0;
  },

  async ensureUser(q: Queryable, email: string): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      `insert into users (email) values ($1) on conflict (email) do update set email = excluded.email returning id`,
      [email],
    );
    return row?.id as string;
  },

  async upsert(q: Queryable, teamId: string, userId: string, scopes: Scope[]): Promise<void> {
    await q.query(
      `insert into team_admins (team_id, user_id, scopes) values ($1, $2, $3)
       on conflict (team_id, user_id) do update set scopes = excluded.scopes`,
      [teamId, userId, scopes],
    );
  },

  async remove(q: Queryable, teamId: string, userId: string): Promise<void> {
    await q.query('delete from team_admins where team_id = $1 and user_id = $2', [teamId, userId]);
    await q.query(
      `update sessions set revoked_at = now(), revoked_reason = 'admin_removed'
       where team_id = $1 and user_id = $2 and revoked_at is null`,
      [teamId, userId],
    );
  },

  /**
   * Clears password, authenticator, backup codes and security keys, and ends the person's sessions
   * in this team. Only for someone who administers no other team (the service checks), so
   * everything cleared belongs to this team.
   */
  async resetAuth(q: Queryable, teamId: string, userId: string): Promise<void> {
    await q.query(
      `update users set password_hash = null, totp_secret = null, totp_pending_secret = null, totp_last_step = null
       where id = $1`,
      [userId],
    );
    await q.query('delete from recovery_codes where user_id = $1', [userId]);
    // A key left behind would still be asked for after the password the admin sets next.
    await q.query('delete from security_keys where user_id = $1', [userId]);
    await q.query('delete from webauthn_challenges where user_id = $1', [userId]);
    // Without a password, an old invitation link would work again: end every open sign-in link.
    await q.query('update login_tokens set used_at = now() where user_id = $1 and used_at is null', [userId]);
    await q.query(
      `update sessions set revoked_at = now(), revoked_reason = 'auth_reset'
       where user_id = $1 and team_id = $2 and revoked_at is null`,
      [userId, teamId],
    );
  },

  /** The team's admin history (security_events). */
  async insertSecurityEvent(
    q: Queryable,
    teamId: string,
    actorId: string | null,
    kind: string,
    email: string,
    detail: object,
  ): Promise<void> {
    await q.query('insert into security_events (kind, email, user_id, team_id, detail) values ($1, $2, $3, $4, $5)', [
      kind,
      email,
      actorId,
      teamId,
      JSON.stringify(detail),
    ]);
  },

  /** The scopes the first of these users with a place in the team holds there; null when none has one. */
  async scopesOf(q: Queryable, teamId: string, userIds: string[]): Promise<Scope[] | null> {
    if (userIds.length === 0) return null;
    const [row] = await q.query<{ scopes: Scope[] | null }>(
      'select scopes from team_admins where team_id = $1 and user_id = any($2::uuid[])',
      [teamId, userIds],
    );
    return row ? row.scopes : null;
  },
};
