import type { OrganizationType, Scope, ScopeExpiry, TeamType } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface HubSessionRow {
  id: string;
  registration_id: string;
  console_sid: string | null;
  user_id: string;
  email: string;
  team_slug: string;
  scopes: Scope[];
  /** When each time-bound scope falls away (epoch ms); standing scopes have no entry. */
  scope_expiry: ScopeExpiry;
  /** The team's plan as the server last stated it; null when it never did (an older server). */
  team_type: TeamType | null;
  organization_type: OrganizationType | null;
  absolute_expires_at: Date;
  revoked_at: Date | null;
}

/** The team's plan as a grant or a re-check states it. */
export interface SessionPlan {
  team_type?: TeamType | undefined;
  organization_type?: OrganizationType | undefined;
}

interface NewHubSession {
  registrationId: string;
  userId: string;
  email: string;
  teamSlug: string;
  scopes: Scope[];
  scopeExpiry: ScopeExpiry;
  device: unknown;
  absoluteExpiresAt: Date;
  consoleSid: string;
  plan: SessionPlan;
}

export const hubSessionsRepository = {
  async create(q: Queryable, s: NewHubSession): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      `insert into hub_sessions (registration_id, user_id, email, team_slug, scopes, device, absolute_expires_at, console_sid,
         team_type, organization_type, scope_expiry)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
      [
        s.registrationId,
        s.userId,
        s.email,
        s.teamSlug,
        s.scopes,
        JSON.stringify(s.device ?? {}),
        s.absoluteExpiresAt,
        s.consoleSid,
        s.plan.team_type ?? null,
        s.plan.organization_type ?? null,
        JSON.stringify(s.scopeExpiry),
      ],
    );
    return (row as { id: string }).id;
  },

  async find(q: Queryable, id: string): Promise<HubSessionRow | undefined> {
    const [row] = await q.query<HubSessionRow>(
      `select id, registration_id, console_sid, user_id, email, team_slug, scopes, scope_expiry, team_type, organization_type,
         absolute_expires_at, revoked_at
       from hub_sessions where id = $1`,
      [id],
    );
    return row;
  },

  /** The super admins this Hub knows: those who have signed in to it from the console, by email. */
  async superAdminEmails(q: Queryable, teamSlug: string): Promise<string[]> {
    const rows = await q.query<{ email: string }>(
      `select distinct email from hub_sessions where team_slug = $1 and 'super_admin' = any(scopes) order by email`,
      [teamSlug],
    );
    return rows.map((r) => r.email);
  },

  async revoke(q: Queryable, id: string, reason: string): Promise<void> {
    await q.query('update hub_sessions set revoked_at = now(), revoked_reason = $2 where id = $1 and revoked_at is null', [
      id,
      reason,
    ]);
  },

  /** Ends the live sessions of a team that came from the given console sessions, or all of a user's. */
  async revokeMatching(
    q: Queryable,
    teamSlug: string,
    match: { sessionIds: string[]; userId: string | null },
    reason: string,
  ): Promise<number> {
    const rows = await q.query(
      `update hub_sessions set revoked_at = now(), revoked_reason = $4
       where team_slug = $1 and revoked_at is null and (console_sid = any($2::text[]) or user_id = $3)
       returning 1`,
      [teamSlug, match.sessionIds, match.userId, reason],
    );
    return rows.length;
  },

  /** What the server said on a re-check: the admin's scopes (with their expiry) and the team's plan now, and never a later end. */
  async follow(
    q: Queryable,
    id: string,
    scopes: Scope[],
    scopeExpiry: ScopeExpiry,
    absoluteExpiresAt: Date | null,
    plan: SessionPlan,
  ): Promise<void> {
    await q.query(
      `update hub_sessions set scopes = $2, scope_expiry = $6,
         absolute_expires_at = least(absolute_expires_at, coalesce($3::timestamptz, absolute_expires_at)),
         team_type = coalesce($4, team_type), organization_type = coalesce($5, organization_type)
       where id = $1`,
      [id, scopes, absoluteExpiresAt, plan.team_type ?? null, plan.organization_type ?? null, JSON.stringify(scopeExpiry)],
    );
  },

  /**
   * The server's push: the admin's scopes now. A push only takes scopes away (it may arrive late,
   * after a refresh learnt of a newer grant); a new scope arrives by the refresh's re-check.
   */
  async narrow(q: Queryable, teamSlug: string, email: string, scopes: readonly Scope[]): Promise<number> {
    const rows = await q.query(
      `update hub_sessions set scopes = array(select s from unnest(scopes) s where s = any($3::text[]))
       where team_slug = $1 and lower(email) = lower($2) and revoked_at is null and not (scopes <@ $3::text[])
       returning 1`,
      [teamSlug, email, scopes],
    );
    return rows.length;
  },
};
