import type { AuxService, Scope, ServiceState } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import type { CallerTeam, SessionContext } from '../../http/caller.ts';

/** A teams row as the console reads it: the caller's team (http/caller.ts). */
type TeamRow = CallerTeam;

export interface HubRow {
  id: string;
  server_url: string;
  credential_id: string;
  hub_version: string | null;
  services: Partial<Record<AuxService, ServiceState>>;
}

/** Everything a request's access decision needs, read in one query. */
export type SessionContextRow = SessionContext;

const TEAM_COLUMNS = `t.id, t.slug, t.name, t.team_type, t.organization_type, t.bill_state, t.bill_type, t.business_cloud,
  t.purchase_partner, t.is_team_policy_present, t.benefit_grant_subscription, to_char(t.started_on, 'YYYY-MM-DD') as started_on,
  to_char(t.valid_till, 'YYYY-MM-DD') as valid_till, t.onboarding_wizard`;

export const teamRepository = {
  async findSessionContext(q: Queryable, sessionId: string): Promise<SessionContextRow | undefined> {
    const [row] = await q.query<SessionContextRow>(
      `select s.id as session_id, s.user_id, u.email, s.revoked_at, s.absolute_expires_at, ta.scopes,
        (select row_to_json(x) from (select ${TEAM_COLUMNS} from teams t where t.id = s.team_id) x) as team,
        (select h.services from hubs h where h.team_id = s.team_id and h.server_url is not null
          order by h.created_at, h.id limit 1) as first_hub_services
       from sessions s
       join users u on u.id = s.user_id
       left join team_admins ta on ta.team_id = s.team_id and ta.user_id = s.user_id
       where s.id = $1`,
      [sessionId],
    );
    return row;
  },

  async findBySlug(q: Queryable, slug: string): Promise<TeamRow | undefined> {
    const [row] = await q.query<TeamRow>(`select ${TEAM_COLUMNS} from teams t where t.slug = $1`, [slug]);
    return row;
  },

  /** Teams where the person is an administrator, by name. */
  async adminTeams(
    q: Queryable,
    userId: string,
  ): Promise<(Pick<TeamRow, 'id' | 'slug' | 'name' | 'team_type' | 'organization_type'> & { scopes: Scope[] })[]> {
    return q.query(
      `select t.id, t.slug, t.name, t.team_type, t.organization_type, ta.scopes from team_admins ta join teams t on t.id = ta.team_id
       where ta.user_id = $1 and cardinality(ta.scopes) > 0 order by t.name`,
      [userId],
    );
  },

  /** The team's Hubs that are set up (a credential waiting for setup has no address yet). */
  async hubs(q: Queryable, teamId: string): Promise<HubRow[]> {
    return q.query(
      `select id, server_url, credential_id, hub_version, services from hubs
       where team_id = $1 and server_url is not null and hub_key is not null order by created_at, id`,
      [teamId],
    );
  },

  async rename(q: Queryable, teamId: string, name: string): Promise<void> {
    await q.query('update teams set name = $2 where id = $1', [teamId, name]);
  },

  /** Locks the team's row for the rest of the transaction: a team's policy and group-priority changes queue behind each other. */
  async lock(q: Queryable, teamId: string): Promise<void> {
    await q.query('select id from teams where id = $1 for update', [teamId]);
  },

  /** Whether the team has a team policy (what the console's team info says). */
  async setPolicyPresent(q: Queryable, teamId: string, present: boolean): Promise<void> {
    await q.query('update teams set is_team_policy_present = $2 where id = $1', [teamId, present]);
  },
};
