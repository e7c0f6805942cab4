import type { Queryable } from '@latchkey/runtime';

export interface ScimMemberRow {
  id: string;
  email: string;
  name: string;
  status: 'invited' | 'active' | 'suspended';
  scim_external_id: string | null;
  scim_attributes: Record<string, unknown>;
  scim_version: number;
  onboarded_at: Date;
  updated_at: Date;
}

export interface ScimGroupRow {
  id: string;
  name: string;
  scim_external_id: string | null;
  scim_version: number;
  scim_managed: boolean;
  created_at: Date;
  updated_at: Date;
}

const MEMBER = `id, email, name, status, scim_external_id, scim_attributes, scim_version, onboarded_at, updated_at`;
const GROUP = `id, name, scim_external_id, scim_version, scim_managed, created_at, updated_at`;
const CURRENT = 'team_id = $1 and deboarded_at is null';

/** Indexed lookups a simple `eq` filter becomes. */
const USER_COLUMNS: Record<string, string> = { id: 'id::text', username: 'email', externalid: 'scim_external_id' };
const GROUP_COLUMNS: Record<string, string> = { id: 'id::text', displayname: 'lower(name)', externalid: 'scim_external_id' };

export const scimRepository = {
  USER_LOOKUPS: Object.keys(USER_COLUMNS),
  GROUP_LOOKUPS: Object.keys(GROUP_COLUMNS),

  async member(q: Queryable, teamId: string, id: string, lock = false): Promise<ScimMemberRow | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await q.query<ScimMemberRow>(
      `select ${MEMBER} from members where ${CURRENT} and id = $2${lock ? ' for update' : ''}`,
      [teamId, id],
    );
    return row;
  },

  async memberByEmail(q: Queryable, teamId: string, email: string): Promise<ScimMemberRow | undefined> {
    const [row] = await q.query<ScimMemberRow>(`select ${MEMBER} from members where ${CURRENT} and email = $2`, [teamId, email]);
    return row;
  },

  /** Members where one indexed attribute equals a value (userName case-insensitively: emails are stored lower-case). */
  async membersWhere(q: Queryable, teamId: string, attribute: string, value: string): Promise<ScimMemberRow[]> {
    const column = USER_COLUMNS[attribute];
    if (!column) return [];
    const v = attribute === 'username' ? value.toLowerCase() : value;
    return q.query<ScimMemberRow>(`select ${MEMBER} from members where ${CURRENT} and ${column} = $2 order by email`, [
      teamId,
      v,
    ]);
  },

  async allMembers(q: Queryable, teamId: string): Promise<ScimMemberRow[]> {
    return q.query<ScimMemberRow>(`select ${MEMBER} from members where ${CURRENT} order by email`, [teamId]);
  },

  async membersPage(q: Queryable, teamId: string, offset: number, limit: number) {
    const [count] = await q.query<{ n: number }>(`select count(*)::int as n from members where ${CURRENT}`, [teamId]);
    const rows = await q.query<ScimMemberRow>(
      `select ${MEMBER} from members where ${CURRENT} order by email limit $2 offset $3`,
      [teamId, limit, offset],
    );
    return { rows, count: count?.n ?? 0 };
  },

  async updateMember(
    q: Queryable,
    teamId: string,
    id: string,
    m: { email: string; name: string; externalId: string | null; attributes: Record<string, unknown> },
  ): Promise<void> {
    await q.query(
      `update members set email = $3, name = $4, scim_external_id = $5, scim_attributes = $6,
         scim_version = scim_version + 1, updated_at = now() where ${CURRENT} and id = $2`,
      [teamId, id, m.email, m.name, m.externalId, JSON.stringify(m.attributes)],
    );
  },

  async setMemberStatus(q: Queryable, teamId: string, id: string, from: string[], to: string): Promise<boolean> {
    const rows = await q.query(
      `update members set status = $4, scim_version = scim_version + 1, updated_at = now()
       where ${CURRENT} and id = $2 and status = any($3::text[]) returning id`,
      [teamId, id, from, to],
    );
    return rows.length > 0;
  },

  /** The team's licence total (-1: unlimited), read without a lock. */
  async licenceTotal(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ total: number }>('select total_licences as total from teams where id = $1', [teamId]);
    return row?.total ?? -1;
  },

  async isAdmin(q: Queryable, teamId: string, email: string): Promise<boolean> {
    const rows = await q.query(
      'select 1 from team_admins ta join users u on u.id = ta.user_id where ta.team_id = $1 and lower(u.email) = lower($2)',
      [teamId, email],
    );
    return rows.length > 0;
  },

  async group(q: Queryable, teamId: string, id: string, lock = false): Promise<ScimGroupRow | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await q.query<ScimGroupRow>(
      `select ${GROUP} from groups where team_id = $1 and id = $2${lock ? ' for update' : ''}`,
      [teamId, id],
    );
    return row;
  },

  async groupsWhere(q: Queryable, teamId: string, attribute: string, value: string): Promise<ScimGroupRow[]> {
    const column = GROUP_COLUMNS[attribute];
    if (!column) return [];
    const v = attribute === 'displayname' ? value.toLowerCase() : value;
    return q.query<ScimGroupRow>(`select ${GROUP} from groups where team_id = $1 and ${column} = $2 order by lower(name)`, [
      teamId,
      v,
    ]);
  },

  async allGroups(q: Queryable, teamId: string): Promise<ScimGroupRow[]> {
    return q.query<ScimGroupRow>(`select ${GROUP} from groups where team_id = $1 order by lower(name), id`, [teamId]);
  },

  /** Current members of each group, as SCIM member values. */
  async groupMembers(q: Queryable, groupIds: string[]) {
    if (groupIds.length === 0) return [];
    return q.query<{ group_id: string; id: string; email: string }>(
      `select gm.group_id, m.id, m.email from group_members gm join members m on m.id = gm.member_id
       where gm.group_id = any($1::uuid[]) and m.deboarded_at is null order by m.email`,
      [groupIds],
    );
  },

  /** Which of `ids` are current members of the team. */
  async existingMembers(q: Queryable, teamId: string, ids: string[]): Promise<string[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const rows = await q.query<{ id: string }>(`select id from members where ${CURRENT} and id = any($2::uuid[])`, [
      teamId,
      valid,
    ]);
    return rows.map((r) => r.id);
  },

  async createGroup(q: Queryable, teamId: string, connectorId: string, name: string, externalId: string | null): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      `insert into groups (team_id, name, scim_connector_id, scim_external_id, scim_managed)
       values ($1, $2, $3, $4, true) returning id`,
      [teamId, name, connectorId, externalId],
    );
    return row?.id as string;
  },

  /** Renames and takes the group over for the connector (a console group an IdP writes to becomes its). */
  async updateGroup(q: Queryable, teamId: string, id: string, connectorId: string, name: string, externalId: string | null) {
    await q.query(
      `update groups set name = $3, scim_external_id = $4, scim_connector_id = $5, scim_managed = true,
         scim_version = scim_version + 1, updated_at = now() where team_id = $1 and id = $2`,
      [teamId, id, name, externalId, connectorId],
    );
  },

  async setGroupMembers(q: Queryable, groupId: string, memberIds: string[]): Promise<void> {
    await q.query('delete from group_members where group_id = $1 and not (member_id = any($2::uuid[]))', [groupId, memberIds]);
    await q.query('insert into group_members (group_id, member_id) select $1, unnest($2::uuid[]) on conflict do nothing', [
      groupId,
      memberIds,
    ]);
  },

  async nameTaken(q: Queryable, teamId: string, name: string, exceptId?: string): Promise<boolean> {
    const rows = await q.query('select 1 from groups where team_id = $1 and lower(name) = lower($2) and id::text <> $3', [
      teamId,
      name,
      exceptId ?? '',
    ]);
    return rows.length > 0;
  },

  async deleteGroup(q: Queryable, teamId: string, id: string): Promise<void> {
    await q.query('delete from groups where team_id = $1 and id = $2', [teamId, id]);
  },

  async touchGroup(q: Queryable, id: string): Promise<void> {
    await q.query('update groups set scim_version = scim_version + 1, updated_at = now() where id = $1', [id]);
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string): boolean => UUID.test(v);
