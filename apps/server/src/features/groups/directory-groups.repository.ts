// The groups as directory sync reads and writes them (features/directory): the groups tables' SQL stays here.
import type { Queryable } from '@latchkey/runtime';

export interface DirectoryGroupRecord {
  id: string;
  name: string;
  directory_id: string | null;
  member_ids: string[];
}

export const directoryGroupsRepository = {
  /** Every group of the team with its members' ids. */
  all(q: Queryable, teamId: string): Promise<DirectoryGroupRecord[]> {
    return q.query<DirectoryGroupRecord>(
      `select g.id, g.name, g.directory_id,
         coalesce(array_agg(gm.member_id) filter (where gm.member_id is not null), '{}') as member_ids
       from groups g left join group_members gm on gm.group_id = g.id
       where g.team_id = $1 group by g.id order by lower(g.name)`,
      [teamId],
    );
  },

  /** Every group of the team, locked for the rest of the transaction (a batch reads them once). */
  lockAll(q: Queryable, teamId: string): Promise<{ id: string; name: string; directory_id: string | null }[]> {
    return q.query('select id, name, directory_id from groups where team_id = $1 order by id for update', [teamId]);
  },

  /** New groups the directory owns, in one statement; their ids by directory id. */
  async createMany(q: Queryable, teamId: string, rows: readonly { name: string; directory_id: string }[]) {
    if (rows.length === 0) return new Map<string, string>();
    const made = await q.query<{ id: string; directory_id: string }>(
      `insert into groups (team_id, name, directory_id) select $1, * from unnest($2::text[], $3::text[])
       returning id, directory_id`,
      [teamId, rows.map((r) => r.name), rows.map((r) => r.directory_id)],
    );
    return new Map(made.map((r) => [r.directory_id, r.id]));
  },

  /** Names the group and gives it to the directory (a console group of that name is taken over). */
  async claim(q: Queryable, teamId: string, id: string, name: string, directoryId: string): Promise<boolean> {
    const rows = await q.query(
      `update groups set name = $3, directory_id = $4 where team_id = $1 and id = $2
         and (name is distinct from $3 or directory_id is distinct from $4) returning id`,
      [teamId, id, name, directoryId],
    );
    return rows.length > 0;
  },

  /** Who is in these groups, as pairs. */
  memberships(q: Queryable, groupIds: string[]): Promise<{ group_id: string; member_id: string }[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return q.query('select group_id, member_id from group_members where group_id = any($1::uuid[])', [groupIds]);
  },

  /** Adds and takes out members of many groups, in two statements. */
  async changeMemberships(
    q: Queryable,
    add: readonly { group_id: string; member_id: string }[],
    drop: readonly { group_id: string; member_id: string }[],
  ): Promise<void> {
    const columns = (pairs: readonly { group_id: string; member_id: string }[]) => [
      pairs.map((p) => p.group_id),
      pairs.map((p) => p.member_id),
    ];
    if (drop.length > 0)
      await q.query(
        `delete from group_members gm using unnest($1::uuid[], $2::uuid[]) as d(group_id, member_id)
         where gm.group_id = d.group_id and gm.member_id = d.member_id`,
        columns(drop),
      );
    if (add.length > 0)
      await q.query(
        'insert into group_members (group_id, member_id) select * from unnest($1::uuid[], $2::uuid[]) on conflict do nothing',
        columns(add),
      );
  },
};
