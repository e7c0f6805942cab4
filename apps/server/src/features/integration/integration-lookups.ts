import type { HostingPreference, OrganizationType, Scope, ScopeExpiry, TeamType } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

/**
 * What the integration room asks of the rooms owning teams, sessions and admins. Those rooms call
 * integration (a team's Hubs, ending Hub sessions), so it cannot import them: the composition root
 * wires these in (src/integration-lookups.ts).
 */
export interface IntegrationLookups {
  /** Each of these teams' slug, by id. */
  teamSlugs(q: Queryable, teamIds: string[]): Promise<Map<string, string>>;
  teamIdBySlug(q: Queryable, slug: string): Promise<string | undefined>;
  /** A team's slug and plan: who a Hub's signed call speaks for, and what its sessions may reach. */
  teamPlan(
    q: Queryable,
    teamId: string,
  ): Promise<{ slug: string; team_type: TeamType; organization_type: OrganizationType } | undefined>;
  /** Where the team wants its auxiliary services hosted (a column of the teams row). */
  hosting(q: Queryable, teamId: string): Promise<HostingPreference>;
  setHosting(q: Queryable, teamId: string, hosting: HostingPreference): Promise<void>;
  /** The teams of these console sessions. */
  teamsOfSessions(q: Queryable, sessionIds: string[]): Promise<string[]>;
  /** The teams the user has had console sessions in. */
  teamsOfUser(q: Queryable, userId: string): Promise<string[]>;
  /**
   * A console session as a Hub's check sees it: its user, team, end, and the admin's scopes now
   * (null when not an admin), each time-bound one with its expiry.
   */
  consoleSession(
    q: Queryable,
    sessionId: string,
  ): Promise<
    | {
        user_id: string;
        team_id: string;
        revoked_at: Date | null;
        absolute_expires_at: Date;
        scopes: Scope[] | null;
        scope_expiry: ScopeExpiry;
      }
    | undefined
  >;
  /** The admin scopes an email (any case) holds in a team now; none for a member who is not an admin. */
  adminScopes(q: Queryable, teamId: string, email: string): Promise<Scope[]>;
  /** The e-mail addresses of the team's active administrators (at least one standing scope). */
  adminEmails(q: Queryable, teamId: string): Promise<string[]>;
}
