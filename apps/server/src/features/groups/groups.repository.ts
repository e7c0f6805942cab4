import { GROUP_LIST_EMAILS, NO_PRIORITY } from '@latchkey/contracts';
import { containsPattern, type Queryable } from '@latchkey/runtime';
import { membersByIdRepository } from '../members/index.ts';
import { groupLookupsRepository } from './group-lookups.repository.ts';

export interface GroupRow {
  id: string;
  name: string;
  policy_override: boolean;
  priority_level: number;
  member_count: number;
  emails: string[];
  scim_managed: boolean;
  directory_managed: boolean;
}

const GROUP_COLUMNS =
  'g.id, g.name, g.policy_override, g.priority_level, g.scim_managed, g.directory_id is not null as directory_managed';
type OwnRow = Omit<GroupRow, 'member_count' | 'emails'>;

/**
 * The groups with their current members (features/members tells which are current): how many,
 * and all their emails or the first few for the list. One lookup for the whole page.
 */
async function withMembers(q: Queryable, groups: OwnRow[], emailLimit: number | null): Promise<GroupRow[]> {
  const pairs = await groupLookupsRepository.memberships(
    q,
    groups.map((g) => g.id),
  );
  const current = new Map(
    (
      await membersByIdRepository.currentPerKey(
        q,
        pairs.map((p) => ({ key: p.group_id, member_id: p.member_id })),
        emailLimit,
      )
    ).map((c) => [c.key, c]),
  );
  return groups.map((g) => ({
    ...g,
    member_count: current.get(g.id)?.member_count ?? 0,
    emails: current.get(g.id)?.emails ?? [],
  }));
}

export const groupsRepository = {
  async page(q: Queryable, teamId: string, search: string | undefined, page: number, pageSize: number) {
    const params: unknown[] = [teamId];
    let where = 'g.team_id = $1';
    if (search) {
      params.push(containsPattern(search));
      where += ` and lower(g.name) like $${params.length}`;
    }
    const [count] = await q.query<{ n: number }>(`select count(*)::int as n from groups g where ${where}`, params);
    params.push(pageSize, (page - 1) * pageSize);
    // Groups are few per team (tens, rarely thousands): OFFSET over the name index is fine here.
    const own = await q.query<OwnRow>(
      `select ${GROUP_COLUMNS} from groups g where ${where}
       order by lower(g.name), g.id limit $${params.length - 1} offset $${params.length}`,
      params,
    );
    return { rows: await withMembers(q, own, GROUP_LIST_EMAILS), count: count?.n ?? 0 };
  },

  async find(q: Queryable, teamId: string, id: string, lock = false): Promise<GroupRow | undefined> {
    const [row] = await q.query<OwnRow>(
      `select ${GROUP_COLUMNS} from groups g where g.team_id = $1 and g.id = $2${lock ? ' for update' : ''}`,
      [teamId, id],
    );
    return row && (await withMembers(q, [row], null))[0];
  },

  /** The group's current members, by email. */
  async members(q: Queryable, groupId: string) {
    const ids = (await groupLookupsRepository.memberships(q, [groupId])).map((p) => p.member_id);
    return (await membersByIdRepository.current(q, ids)).map(({ email, name, status }) => ({ email, name, status }));
  },

  async nameTaken(q: Queryable, teamId: string, name: string, exceptId?: string): Promise<boolean> {
    const rows = await q.query('select 1 from groups where team_id = $1 and lower(name) = lower($2) and id <> $3', [
      teamId,
      name,
      exceptId ?? '00000000-0000-0000-0000-000000000000',
    ]);
    return rows.length > 0;
  },

  async create(q: Queryable, teamId: string, name: string): Promise<string> {
    const [row] = await q.query<{ id: string }>('insert into groups (team_id, name) values ($1, $2) returning id', [
      teamId,
      name,
    ]);
    return row?.id as string;
  },

  async rename(q: Queryable, teamId: string, id: string, name: string): Promise<void> {
    await q.query('update groups set name = $3 where team_id = $1 and id = $2', [teamId, id, name]);
  },

  /** Removes the groups; returns the ids that existed in this team. */
  async remove(q: Queryable, teamId: string, ids: string[]): Promise<string[]> {
    const rows = await q.query<{ id: string }>('delete from groups where team_id = $1 and id = any($2::uuid[]) returning id', [
      teamId,
      ids,
    ]);
    return rows.map((r) => r.id);
  },

  /** The groups of `ids` another source owns (a SCIM connector or directory sync), by name. */
  async managedNames(q: Queryable, teamId: string, ids: string[]): Promise<{ name: string; scim_managed: boolean }[]> {
    return q.query<{ name: string; scim_managed: boolean }>(
      `select name, scim_managed from groups where team_id = $1 and id = any($2::uuid[])
         and (scim_managed or directory_id is not null) order by name`,
      [teamId, ids],
    );
  },

  async existing(q: Queryable, teamId: string, ids: string[]): Promise<string[]> {
    const rows = await q.query<{ id: string }>('select id from groups where team_id = $1 and id = any($2::uuid[]) for update', [
      teamId,
      ids,
    ]);
    return rows.map((r) => r.id);
  },

  async addMembers(q: Queryable, groupId: string, memberIds: string[]): Promise<number> {
    const rows = await q.query(
      `insert into group_members (group_id, member_id) select $1, unnest($2::uuid[])
       on conflict do nothing returning member_id`,
      [groupId, memberIds],
    );
    return rows.length;
  },

  async removeMembers(q: Queryable, groupId: string, memberIds: string[]): Promise<number> {
    const rows = await q.query(
      'delete from group_members where group_id = $1 and member_id = any($2::uuid[]) returning member_id',
      [groupId, memberIds],
    );
    return rows.length;
  },

  /**
   * Gives the group `level`; when another group holds it, that group and those after it move down
   * one, so levels stay distinct and the order the admin chose holds.
   */
  async setPriority(q: Queryable, teamId: string, id: string, level: number): Promise<void> {
    if (level !== NO_PRIORITY) {
      const taken = await q.query('select 1 from groups where team_id = $1 and id <> $2 and priority_level = $3', [
        teamId,
        id,
        level,
      ]);
      if (taken.length > 0) {
        await q.query(
          `update groups set priority_level = priority_level + 1
           where team_id = $1 and id <> $2 and priority_level >= $3 and priority_level < $4`,
          [teamId, id, level, NO_PRIORITY],
        );
      }
    }
    await q.query('update groups set priority_level = $3 where team_id = $1 and id = $2', [teamId, id, level]);
  },

  // ── For the policies and the operator's export: the groups' override flag, priority and memberships ──

  /** The team's groups, highest priority (lowest number) first, then by name: how policies rank them. */
  async byPriority(q: Queryable, teamId: string): Promise<GroupRow[]> {
    const own = await q.query<OwnRow>(
      `select ${GROUP_COLUMNS} from groups g where g.team_id = $1 order by g.priority_level, lower(g.name)`,
      [teamId],
    );
    return withMembers(q, own, GROUP_LIST_EMAILS);
  },

  /** One group with its first few emails only; `lock` holds its row until the transaction ends. */
  async findBrief(q: Queryable, teamId: string, id: string, lock = false): Promise<GroupRow | undefined> {
    const own = await q.query<OwnRow>(
      `select ${GROUP_COLUMNS} from groups g where g.team_id = $1 and g.id = $2${lock ? ' for update of g' : ''}`,
      [teamId, id],
    );
    const [row] = await withMembers(q, own, GROUP_LIST_EMAILS);
    return row;
  },

  /** Groups with a policy override, highest priority first, ties by name. */
  async overriding(q: Queryable, teamId: string): Promise<{ id: string; name: string; priority_level: number }[]> {
    return q.query(
      `select id, name, priority_level from groups where team_id = $1 and policy_override
       order by priority_level, lower(name), id`,
      [teamId],
    );
  },

  async setPolicyOverride(q: Queryable, groupId: string): Promise<void> {
    await q.query('update groups set policy_override = true where id = $1', [groupId]);
  },

  /** The group has no policy of its own any more: no override, and `noPriority`. */
  async clearPolicyOverride(q: Queryable, groupId: string, noPriority: number): Promise<void> {
    await q.query('update groups set policy_override = false, priority_level = $2 where id = $1', [groupId, noPriority]);
  },

  /** One past the highest priority level below `noPriority` in use (1 when none is). */
  async priorityAfterLast(q: Queryable, teamId: string, noPriority: number): Promise<number> {
    const [row] = await q.query<{ n: number }>(
      'select coalesce(max(priority_level), 0)::int + 1 as n from groups where team_id = $1 and priority_level < $2',
      [teamId, noPriority],
    );
    return row?.n ?? 1;
  },

  /** The groups each of these members belongs to, by member id (members in no group are absent). */
  async groupIdsOfMembers(q: Queryable, memberIds: string[]): Promise<Map<string, string[]>> {
    if (memberIds.length === 0) return new Map();
    const rows = await q.query<{ member_id: string; group_ids: string[] }>(
      `select member_id, array_agg(group_id::text) as group_ids from group_members
       where member_id = any($1::uuid[]) group by member_id`,
      [memberIds],
    );
    return new Map(rows.map((r) => [r.member_id, r.group_ids]));
  },

  /** Every group of the team by name, with the ids of all its members (former ones too): the operator's export. */
  async exportList(q: Queryable, teamId: string): Promise<{ id: string; name: string; member_ids: string[] }[]> {
    return q.query(
      `select g.id, g.name,
         coalesce((select array_agg(gm.member_id::text) from group_members gm where gm.group_id = g.id), '{}') as member_ids
       from groups g where g.team_id = $1 order by g.name`,
      [teamId],
    );
  },
};
