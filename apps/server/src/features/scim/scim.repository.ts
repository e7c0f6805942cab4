import type { Queryable } from '@latchkey/runtime';

export interface ScimMemberRow {
  id: string;
  email: string;
  /** The userName as the identity provider sent it; null: never named by SCIM (its userName is the email). */
  scim_user_name: string | null;
  name: string;
  status: 'invited' | 'active' | 'suspended';
  scim_external_id: string | null;
  scim_attributes: Record<string, unknown>;
  scim_version: number;
  onboarded_at: Date;
  updated_at: Date;
  /** The groups the member is in, by name (RFC 7643 §4.1.2 `groups`). */
  groups: { id: string; name: string }[];
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

/** What a SCIM write sets on a member. */
export interface ScimMemberWrite {
  email: string;
  userName: string;
  name: string;
  externalId: string | null;
  attributes: Record<string, unknown>;
}

const MEMBER = `id, email, scim_user_name, name, status, scim_external_id, scim_attributes, scim_version, onboarded_at, updated_at,
  (select coalesce(json_agg(json_build_object('id', g.id, 'name', g.name) order by lower(g.name), g.id), '[]'::json)
     from group_members gm join groups g on g.id = gm.group_id where gm.member_id = members.id) as groups`;
const GROUP = `id, name, scim_external_id, scim_version, scim_managed, created_at, updated_at`;
const CURRENT = 'team_id = $1 and deboarded_at is null';

/** A page of rows where `where` holds ($1 is the team), with how many hold in all. */
async function page<T>(
  q: Queryable,
  from: string,
  where: string,
  params: unknown[],
  orderBy: string,
  offset: number,
  limit: number,
): Promise<{ rows: T[]; total: number }> {
  const n = params.length;
  if (where === 'true') {
    // No filter (an IdP's import pages through everyone): the count and an index-ordered page
    // apart, rather than a window over the whole team sorted for every page.
    const [count] = await q.query<{ n: number }>(`select count(*)::int as n from (select ${from}) r`, params);
    const rows = await q.query<T>(`select * from (select ${from}) r ${orderBy} limit $${n + 1} offset $${n + 2}`, [
      ...params,
      limit,
      offset,
    ]);
    return { rows, total: count?.n ?? 0 };
  }
  const rows = await q.query<T & { total__: number }>(
    `select *, count(*) over ()::int as total__ from (select ${from} and ${where}) r ${orderBy} limit $${n + 1} offset $${n + 2}`,
    [...params, limit, offset],
  );
  // Past the last row (or count=0) the window has no row to ride on: count alone.
  const total =
    rows[0]?.total__ ??
    (await q.query<{ n: number }>(`select count(*)::int as n from (select ${from} and ${where}) r`, params))[0]?.n ??
    0;
  for (const row of rows) delete (row as { total__?: number }).total__;
  return { rows, total };
}

export const scimRepository = {
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

  /** Whether a current member other than `exceptId` has this userName, compared without case. */
  async userNameTaken(q: Queryable, teamId: string, userName: string, exceptId?: string): Promise<boolean> {
    const rows = await q.query(
      `select 1 from members where ${CURRENT} and lower(coalesce(scim_user_name, email)) = lower($2) and id::text <> $3 limit 1`,
      [teamId, userName, exceptId ?? ''],
    );
    return rows.length > 0;
  },

  /** Current members where `where` holds ($1 is the team), in `orderBy` order, a page of them when `limit` is set. */
  membersPage(q: Queryable, where: string, params: unknown[], orderBy: string, offset: number, limit: number) {
    return page<ScimMemberRow>(q, `${MEMBER} from members where ${CURRENT}`, where, params, orderBy, offset, limit);
  },

  membersWhere(q: Queryable, where: string, params: unknown[]): Promise<ScimMemberRow[]> {
    return q.query<ScimMemberRow>(`select ${MEMBER} from members where ${CURRENT} and ${where} order by email`, params);
  },

  /**
   * A new member (or a former one coming back) as invited and licensed, as the console's invite
   * (membersRepository.invite) makes them, with the SCIM attributes in the same statement, and the
   * team's licence total (-1: unlimited, read without a lock); undefined when a current member has that email.
   */
  async insertMember(
    q: Queryable,
    teamId: string,
    m: ScimMemberWrite,
  ): Promise<(ScimMemberRow & { licence_total: number }) | undefined> {
    const [row] = await q.query<ScimMemberRow & { licence_total: number }>(
      `insert into members (team_id, email, status, licensed, usage, invited_at, onboarded_at, name, scim_external_id, scim_attributes, scim_user_name)
       values ($1, $2, 'invited', true, 'unresponsive', now(), now(), $3, $4, $5, $6)
       on conflict (team_id, email) do update set deboarded_at = null, status = 'invited', licensed = true,
         usage = 'unresponsive', invited_at = now(), onboarded_at = now(), last_active_at = null,
         name = excluded.name, scim_external_id = excluded.scim_external_id, scim_attributes = excluded.scim_attributes,
         scim_user_name = excluded.scim_user_name, status_before_suspension = null,
         scim_version = members.scim_version + 1, updated_at = now()
       where members.deboarded_at is not null
       returning ${MEMBER}, (select total_licences from teams where id = $1) as licence_total`,
      [teamId, m.email, m.name, m.externalId, JSON.stringify(m.attributes), m.userName],
    );
    return row;
  },

  async updateMember(q: Queryable, teamId: string, id: string, m: ScimMemberWrite): Promise<ScimMemberRow | undefined> {
    const [row] = await q.query<ScimMemberRow>(
      `update members set email = $3, name = $4, scim_external_id = $5, scim_attributes = $6, scim_user_name = $7,
         scim_version = scim_version + 1, updated_at = now() where ${CURRENT} and id = $2 returning ${MEMBER}`,
      [teamId, id, m.email, m.name, m.externalId, JSON.stringify(m.attributes), m.userName],
    );
    return row;
  },

  /** Suspends an invited or active member, remembering which it was; undefined when it was neither. */
  async suspendMember(q: Queryable, teamId: string, id: string): Promise<ScimMemberRow | undefined> {
    const [row] = await q.query<ScimMemberRow>(
      `update members set status = 'suspended', status_before_suspension = status, scim_version = scim_version + 1, updated_at = now()
       where ${CURRENT} and id = $2 and status in ('invited', 'active') returning ${MEMBER}`,
      [teamId, id],
    );
    return row;
  },

  /**
   * Restores a suspended member to the status it had (invited stays invited; active when not known,
   * as for members suspended before it was kept); undefined when it was not suspended.
   */
  async restoreMember(q: Queryable, teamId: string, id: string): Promise<ScimMemberRow | undefined> {
    const [row] = await q.query<ScimMemberRow>(
      `update members set status = coalesce(status_before_suspension, 'active'), status_before_suspension = null,
         scim_version = scim_version + 1, updated_at = now()
       where ${CURRENT} and id = $2 and status = 'suspended' returning ${MEMBER}`,
      [teamId, id],
    );
    return row;
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

  groupsPage(q: Queryable, where: string, params: unknown[], orderBy: string, offset: number, limit: number) {
    return page<ScimGroupRow>(q, `${GROUP} from groups where team_id = $1`, where, params, orderBy, offset, limit);
  },

  groupsWhere(q: Queryable, where: string, params: unknown[]): Promise<ScimGroupRow[]> {
    return q.query<ScimGroupRow>(`select ${GROUP} from groups where team_id = $1 and ${where} order by lower(name), id`, params);
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

  /**
   * Adds the team's current members among `ids` to a group: how many of `ids` are such members
   * (fewer than asked: some are not) and how many were not in the group yet.
   */
  async addGroupMembers(q: Queryable, teamId: string, groupId: string, ids: string[]): Promise<{ valid: number; added: number }> {
    const [row] = await q.query<{ valid: number; added: number }>(
      `with valid as (select id from members where ${CURRENT} and id = any($3::uuid[])),
       added as (insert into group_members (group_id, member_id) select $2, id from valid on conflict do nothing returning 1)
       select (select count(*) from valid)::int as valid, (select count(*) from added)::int as added`,
      [teamId, groupId, ids],
    );
    return row ?? { valid: 0, added: 0 };
  },

  /** Takes a group over for the connector (as {@link updateGroup} does) and moves its version. */
  async claimGroup(q: Queryable, teamId: string, id: string, connectorId: string): Promise<void> {
    await q.query(
      `update groups set scim_connector_id = $3, scim_managed = true, scim_version = scim_version + 1, updated_at = now()
       where team_id = $1 and id = $2`,
      [teamId, id, connectorId],
    );
  },

  async touchGroup(q: Queryable, id: string): Promise<void> {
    await q.query('update groups set scim_version = scim_version + 1, updated_at = now() where id = $1', [id]);
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string): boolean => UUID.test(v);
