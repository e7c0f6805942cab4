// What other rooms ask of the groups and who is in them (devices, family, SCIM), as batch lookups
// by id: the groups and group_members tables' SQL stays here.
import type { Queryable } from '@latchkey/runtime';

export const groupLookupsRepository = {
  /** One of the team's groups, and whether the member is in it. */
  async withMembership(q: Queryable, teamId: string, groupId: string, memberId: string) {
    const [row] = await q.query<{ id: string; name: string; is_member: boolean }>(
      `select g.id, g.name, exists (select 1 from group_members gm where gm.group_id = g.id and gm.member_id = $3) as is_member
       from groups g where g.team_id = $1 and g.id = $2`,
      [teamId, groupId, memberId],
    );
    return row;
  },

  /** The team's groups among `ids`, by name. */
  async named(q: Queryable, teamId: string, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
    if (ids.length === 0) return [];
    return q.query<{ id: string; name: string }>(
      'select id, name from groups where team_id = $1 and id = any($2::uuid[]) order by lower(name), id',
      [teamId, ids],
    );
  },

  /** Who is in each of these groups (current members or not: features/members tells). */
  async memberships(q: Queryable, groupIds: readonly string[]): Promise<{ group_id: string; member_id: string }[]> {
    if (groupIds.length === 0) return [];
    return q.query<{ group_id: string; member_id: string }>(
      'select group_id, member_id from group_members where group_id = any($1::uuid[])',
      [groupIds],
    );
  },

  /** Everyone in any of these groups, once each. */
  async memberIds(q: Queryable, groupIds: readonly string[]): Promise<string[]> {
    if (groupIds.length === 0) return [];
    const rows = await q.query<{ member_id: string }>(
      'select distinct member_id from group_members where group_id = any($1::uuid[])',
      [groupIds],
    );
    return rows.map((r) => r.member_id);
  },

  /** The groups each of these members is in, by name. */
  async ofMembers(q: Queryable, memberIds: readonly string[]): Promise<{ member_id: string; id: string; name: string }[]> {
    if (memberIds.length === 0) return [];
    return q.query<{ member_id: string; id: string; name: string }>(
      `select gm.member_id, g.id, g.name from group_members gm join groups g on g.id = gm.group_id
       where gm.member_id = any($1::uuid[]) order by lower(g.name), g.id`,
      [memberIds],
    );
  },
};
