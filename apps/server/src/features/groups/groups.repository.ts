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
}

const GROUP_COLUMNS = 'g.id, g.name, g.policy_override, g.priority_level, g.scim_managed';
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

  async scimManagedNames(q: Queryable, teamId: string, ids: string[]): Promise<string[]> {
    const rows = await q.query<{ name: string }>(
      'select name from groups where team_id = $1 and id = any($2::uuid[]) and scim_managed order by name',
      [teamId, ids],
    );
    return rows.map((r) => r.name);
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
};
