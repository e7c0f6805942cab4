import type { ElevationSettings, Scope } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface ElevationRow {
  id: string;
  team_id: string;
  user_id: string;
  scope: Scope;
  minutes: number;
  reason: string;
  status: 'pending' | 'active' | 'ended';
  request_id: string | null;
  approved_by: string | null;
  requested_at: Date;
  expires_at: Date | null;
  ended_reason: string | null;
}

const COLUMNS = `id, team_id, user_id, scope, minutes, reason, status, request_id, approved_by, requested_at, expires_at, ended_reason`;
const OFF: ElevationSettings = { enabled: false, self_scopes: [] };

/** Just-in-time admin rights: the team's setting, eligibility and each elevation (the only SQL on them). */
export const elevationsRepository = {
  async settings(q: Queryable, teamId: string, lock = false): Promise<ElevationSettings> {
    const [row] = await q.query<ElevationSettings>(
      `select enabled, self_scopes from admin_elevation_settings where team_id = $1${lock ? ' for update' : ''}`,
      [teamId],
    );
    return row ?? OFF;
  },

  async saveSettings(q: Queryable, teamId: string, s: ElevationSettings): Promise<void> {
    await q.query(
      `insert into admin_elevation_settings (team_id, enabled, self_scopes) values ($1, $2, $3)
       on conflict (team_id) do update set enabled = excluded.enabled, self_scopes = excluded.self_scopes, updated_at = now()`,
      [teamId, s.enabled, s.self_scopes],
    );
  },

  /** The scopes the person may elevate to in the team (none when not an admin there). */
  async eligibleScopes(q: Queryable, teamId: string, userId: string): Promise<Scope[]> {
    const [row] = await q.query<{ eligible_scopes: Scope[] }>(
      'select eligible_scopes from team_admins where team_id = $1 and user_id = $2 and cardinality(scopes) > 0',
      [teamId, userId],
    );
    return row?.eligible_scopes ?? [];
  },

  /** Each administrator's eligible scopes, by user id. */
  async eligibility(q: Queryable, teamId: string): Promise<Map<string, Scope[]>> {
    const rows = await q.query<{ user_id: string; eligible_scopes: Scope[] }>(
      'select user_id, eligible_scopes from team_admins where team_id = $1 and cardinality(scopes) > 0',
      [teamId],
    );
    return new Map(rows.map((r) => [r.user_id, r.eligible_scopes]));
  },

  async setScopes(q: Queryable, teamId: string, userId: string, scopes: Scope[], eligible: Scope[]): Promise<void> {
    await q.query('update team_admins set scopes = $3, eligible_scopes = $4 where team_id = $1 and user_id = $2', [
      teamId,
      userId,
      scopes,
      eligible,
    ]);
  },

  async create(
    q: Queryable,
    e: { teamId: string; userId: string; scope: Scope; minutes: number; reason: string; active: boolean; now: Date },
  ): Promise<ElevationRow | undefined> {
    const expires = e.active ? new Date(e.now.getTime() + e.minutes * 60_000) : null;
    const [row] = await q.query<ElevationRow>(
      `insert into admin_elevations (team_id, user_id, scope, minutes, reason, status, requested_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (team_id, user_id, scope) where status in ('pending', 'active') do nothing
       returning ${COLUMNS}`,
      [e.teamId, e.userId, e.scope, e.minutes, e.reason, e.active ? 'active' : 'pending', e.now, expires],
    );
    return row;
  },

  async setRequest(q: Queryable, id: string, requestId: string): Promise<void> {
    await q.query('update admin_elevations set request_id = $2 where id = $1', [id, requestId]);
  },

  async find(q: Queryable, teamId: string, id: string, lock = false): Promise<ElevationRow | undefined> {
    const [row] = await q.query<ElevationRow>(
      `select ${COLUMNS} from admin_elevations where team_id = $1 and id = $2${lock ? ' for update' : ''}`,
      [teamId, id],
    );
    return row;
  },

  /** A pending elevation becomes active from `now` for its minutes; undefined when it is no longer pending. */
  async activate(q: Queryable, id: string, approvedBy: string | null, now: Date): Promise<ElevationRow | undefined> {
    const [row] = await q.query<ElevationRow>(
      `update admin_elevations set status = 'active', approved_by = $2, expires_at = $3::timestamptz + make_interval(mins => minutes)
       where id = $1 and status = 'pending' returning ${COLUMNS}`,
      [id, approvedBy, now],
    );
    return row;
  },

  async end(q: Queryable, id: string, reason: string, now: Date): Promise<ElevationRow | undefined> {
    const [row] = await q.query<ElevationRow>(
      `update admin_elevations set status = 'ended', ended_at = $3, ended_reason = $2
       where id = $1 and status in ('pending', 'active') returning ${COLUMNS}`,
      [id, reason, now],
    );
    return row;
  },

  /** Active elevations whose time is up by the database's clock (one clock for every instance), locked for the sweep. */
  async dueToExpire(q: Queryable, limit = 100): Promise<ElevationRow[]> {
    return q.query<ElevationRow>(
      `select ${COLUMNS} from admin_elevations where status = 'active' and expires_at <= now()
       order by expires_at limit $1 for update skip locked`,
      [limit],
    );
  },

  /** Pending elevations waiting on an approval request, oldest first, locked for the sweep. */
  async pendingWithRequest(q: Queryable, limit = 100): Promise<ElevationRow[]> {
    return q.query<ElevationRow>(
      `select ${COLUMNS} from admin_elevations where status = 'pending' and request_id is not null
       order by requested_at limit $1 for update skip locked`,
      [limit],
    );
  },

  /** The open elevations of a team (optionally one person's), newest first. */
  async open(q: Queryable, teamId: string, userId?: string): Promise<ElevationRow[]> {
    return q.query<ElevationRow>(
      `select ${COLUMNS} from admin_elevations where team_id = $1 and status in ('pending', 'active')
         and ($2::uuid is null or user_id = $2) order by requested_at desc`,
      [teamId, userId ?? null],
    );
  },

  /** One person's elevations: the open ones and the last ended ones. */
  async mine(q: Queryable, teamId: string, userId: string, limit = 10): Promise<ElevationRow[]> {
    return q.query<ElevationRow>(
      `select ${COLUMNS} from admin_elevations where team_id = $1 and user_id = $2
       order by (status <> 'ended') desc, requested_at desc limit $3`,
      [teamId, userId, limit],
    );
  },

  /**
   * The person's active elevations, each with its expiry: whoever reads them drops one past its
   * time by their own clock (`liveScopes`), so a remembered answer never outlives an expiry.
   */
  async held(q: Queryable, teamId: string, userId: string): Promise<{ scope: Scope; expires_at: Date }[]> {
    return q.query(`select scope, expires_at from admin_elevations where team_id = $1 and user_id = $2 and status = 'active'`, [
      teamId,
      userId,
    ]);
  },
};
