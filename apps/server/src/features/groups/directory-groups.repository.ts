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

  async byDirectoryId(q: Queryable, teamId: string, directoryId: string): Promise<{ id: string; name: string } | undefined> {
    const [row] = await q.query<{ id: string; name: string }>(
      'select id, name from groups where team_id = $1 and directory_id = $2 for update',
      [teamId, directoryId],
    );
    return row;
  },

  async byName(q: Queryable, teamId: string, name: string): Promise<{ id: string; directory_id: string | null } | undefined> {
    const [row] = await q.query<{ id: string; directory_id: string | null }>(
      'select id, directory_id from groups where team_id = $1 and lower(name) = lower($2) for update',
      [teamId, name],
    );
    return row;
  },

  async create(q: Queryable, teamId: string, name: string, directoryId: string): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      'insert into groups (team_id, name, directory_id) values ($1, $2, $3) returning id',
      [teamId, name, directoryId],
    );
    return row?.id as string;
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

  async memberIds(q: Queryable, groupId: string): Promise<string[]> {
    const rows = await q.query<{ member_id: string }>('select member_id from group_members where group_id = $1', [groupId]);
    return rows.map((r) => r.member_id);
  },

  /** Adds and takes out members of one group. */
  async changeMembers(q: Queryable, groupId: string, add: string[], drop: string[]): Promise<void> {
    if (drop.length > 0)
      await q.query('delete from group_members where group_id = $1 and member_id = any($2::uuid[])', [groupId, drop]);
    if (add.length > 0)
      await q.query('insert into group_members (group_id, member_id) select $1, unnest($2::uuid[]) on conflict do nothing', [
        groupId,
        add,
      ]);
  },
};
