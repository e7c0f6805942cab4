import type { Scope } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import type { CallerTeam, SessionContext } from '../../http/caller.ts';
import { adminsRepository } from '../admins/index.ts';
import { sessionsRepository } from '../auth/index.ts';
import { teamHubsRepository } from '../integration/index.ts';
import { usersRepository } from '../users/index.ts';

/** A teams row as the console reads it: the caller's team (http/caller.ts). */
type TeamRow = CallerTeam;

/** Everything a request's access decision needs. */
export type SessionContextRow = SessionContext;

const TEAM_COLUMNS = `t.id, t.slug, t.name, t.team_type, t.organization_type, t.bill_state, t.bill_type, t.business_cloud,
  t.purchase_partner, t.is_team_policy_present, to_char(t.started_on, 'YYYY-MM-DD') as started_on,
  to_char(t.valid_till, 'YYYY-MM-DD') as valid_till, t.onboarding_wizard`;

export const teamRepository = {
  /**
   * The session, its admin's email and scopes, the team and its first Hub's services: each asked of
   * the room that owns it (auth, users, admins, integration). Undefined for an unknown session.
   */
  async findSessionContext(q: Queryable, sessionId: string): Promise<SessionContextRow | undefined> {
    const session = await sessionsRepository.find(q, sessionId);
    if (!session) return undefined;
    const [user, scopes, team, hubServices] = await Promise.all([
      usersRepository.findUserById(q, session.user_id),
      adminsRepository.scopesIn(q, session.team_id, session.user_id),
      teamRepository.findById(q, session.team_id),
      teamHubsRepository.firstServices(q, session.team_id),
    ]);
    if (!user) return undefined;
    return {
      session_id: session.id,
      user_id: session.user_id,
      email: user.email,
      revoked_at: session.revoked_at,
      absolute_expires_at: session.absolute_expires_at,
      scopes: scopes ?? null,
      team: team as TeamRow,
      first_hub_services: hubServices,
    };
  },

  async findById(q: Queryable, id: string): Promise<TeamRow | undefined> {
    const [row] = await q.query<TeamRow>(`select ${TEAM_COLUMNS} from teams t where t.id = $1`, [id]);
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
  ): Promise<(Pick<TeamRow, 'id' | 'slug' | 'name' | 'team_type'> & { scopes: Scope[] })[]> {
    const memberships = await adminsRepository.teamsOf(q, userId);
    if (memberships.length === 0) return [];
    const scopes = new Map(memberships.map((m) => [m.team_id, m.scopes]));
    const teams = await q.query<Pick<TeamRow, 'id' | 'slug' | 'name' | 'team_type'>>(
      'select id, slug, name, team_type from teams where id = any($1::uuid[]) order by name',
      [[...scopes.keys()]],
    );
    return teams.map((t) => ({ ...t, scopes: scopes.get(t.id) ?? [] }));
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
