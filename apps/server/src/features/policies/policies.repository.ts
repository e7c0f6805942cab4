import type { GroupPolicy, NotEnforced, PolicyGroup, TeamPolicy } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { groupsRepository } from '../groups/index.ts';

interface GroupPolicyRow {
  policy_json: GroupPolicy;
  not_enforced_json: NotEnforced;
}

/** A group whose policy overrides the team's, with its policy. */
export interface OverrideGroup extends GroupPolicyRow {
  id: string;
  name: string;
  priority_level: number;
}

export interface HistoryRow {
  id: string;
  created_at: Date;
  actor_email: string;
  scope: 'team' | 'group';
  group_id: string | null;
  group_name: string | null;
  action: 'update' | 'restore';
  restored_from: string | null;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

const GROUP_COLUMNS = `g.id, g.name, g.policy_override, g.priority_level,
  (select count(*)::int from group_members gm join members m on m.id = gm.member_id
   where gm.group_id = g.id and m.deboarded_at is null) as member_count`;

const HISTORY_COLUMNS = `id::text as id, created_at, actor_email, scope, group_id, group_name, action,
  restored_from::text as restored_from, before, after`;

export const policiesRepository = {
  async teamPolicy(q: Queryable, teamId: string): Promise<TeamPolicy> {
    const [row] = await q.query<{ policy_json: TeamPolicy }>('select policy_json from team_policies where team_id = $1', [
      teamId,
    ]);
    return row?.policy_json ?? {};
  },

  async saveTeamPolicy(q: Queryable, teamId: string, policy: TeamPolicy): Promise<void> {
    await q.query(
      `insert into team_policies (team_id, policy_json) values ($1, $2)
       on conflict (team_id) do update set policy_json = excluded.policy_json, updated_at = now()`,
      [teamId, JSON.stringify(policy)],
    );
  },

  async groups(q: Queryable, teamId: string): Promise<PolicyGroup[]> {
    return q.query<PolicyGroup>(
      `select ${GROUP_COLUMNS} from groups g where g.team_id = $1 order by g.priority_level, lower(g.name)`,
      [teamId],
    );
  },

  async group(q: Queryable, teamId: string, groupId: string, lock = false): Promise<PolicyGroup | null> {
    const [row] = await q.query<PolicyGroup>(
      `select ${GROUP_COLUMNS} from groups g where g.team_id = $1 and g.id = $2${lock ? ' for update of g' : ''}`,
      [teamId, groupId],
    );
    return row ?? null;
  },

  async groupPolicy(q: Queryable, groupId: string): Promise<GroupPolicyRow | null> {
    const [row] = await q.query<GroupPolicyRow>('select policy_json, not_enforced_json from group_policies where group_id = $1', [
      groupId,
    ]);
    return row ?? null;
  },

  /** Saves a group's override; its priority moves the groups holding it down, as the groups screen does. */
  async saveGroupPolicy(q: Queryable, teamId: string, groupId: string, state: GroupPolicyRow, priority: number): Promise<void> {
    await q.query(
      `insert into group_policies (group_id, policy_json, not_enforced_json) values ($1, $2, $3)
       on conflict (group_id) do update set policy_json = excluded.policy_json,
         not_enforced_json = excluded.not_enforced_json, updated_at = now()`,
      [groupId, JSON.stringify(state.policy_json), JSON.stringify(state.not_enforced_json)],
    );
    await q.query('update groups set policy_override = true where id = $1', [groupId]);
    await groupsRepository.setPriority(q, teamId, groupId, priority);
  },

  /** Spec §4: an empty group policy resets policy_override to false and the priority to 999999. */
  async clearGroupPolicy(q: Queryable, groupId: string, noPriority: number): Promise<void> {
    await q.query('delete from group_policies where group_id = $1', [groupId]);
    await q.query('update groups set policy_override = false, priority_level = $2 where id = $1', [groupId, noPriority]);
  },

  /** The priority after the lowest-ranked overriding group's. */
  async nextPriority(q: Queryable, teamId: string, noPriority: number): Promise<number> {
    const [row] = await q.query<{ n: number }>(
      'select coalesce(max(priority_level), 0)::int + 1 as n from groups where team_id = $1 and priority_level < $2',
      [teamId, noPriority],
    );
    return Math.min(row?.n ?? 1, noPriority - 1);
  },

  /** Every overriding group with its policy, highest priority (lowest number) first, ties by name. */
  async overrideGroups(q: Queryable, teamId: string): Promise<OverrideGroup[]> {
    return q.query<OverrideGroup>(
      `select g.id, g.name, g.priority_level, gp.policy_json, gp.not_enforced_json
       from groups g join group_policies gp on gp.group_id = g.id
       where g.team_id = $1 and g.policy_override order by g.priority_level, lower(g.name), g.id`,
      [teamId],
    );
  },

  /** Current members' emails with the groups they belong to. */
  async memberships(q: Queryable, teamId: string): Promise<{ email: string; group_ids: string[] }[]> {
    return q.query<{ email: string; group_ids: string[] }>(
      `select m.email, coalesce(array_agg(gm.group_id::text) filter (where gm.group_id is not null), '{}') as group_ids
       from members m left join group_members gm on gm.member_id = m.id
       where m.team_id = $1 and m.deboarded_at is null group by m.email order by m.email`,
      [teamId],
    );
  },

  async member(
    q: Queryable,
    teamId: string,
    email: string,
  ): Promise<{ email: string; name: string; group_ids: string[] } | null> {
    const [row] = await q.query<{ email: string; name: string; group_ids: string[] }>(
      `select m.email, m.name,
         coalesce(array_agg(gm.group_id::text) filter (where gm.group_id is not null), '{}') as group_ids
       from members m left join group_members gm on gm.member_id = m.id
       where m.team_id = $1 and lower(m.email) = lower($2) and m.deboarded_at is null group by m.id`,
      [teamId, email],
    );
    return row ?? null;
  },

  /** Which of `emails` are not current members of the team. */
  async notMembers(q: Queryable, teamId: string, emails: string[]): Promise<string[]> {
    if (emails.length === 0) return [];
    const rows = await q.query<{ email: string }>(
      `select e as email from unnest($2::text[]) as e
       where not exists (select 1 from members m where m.team_id = $1 and lower(m.email) = lower(e) and m.deboarded_at is null)`,
      [teamId, emails],
    );
    return rows.map((r) => r.email);
  },

  async addHistory(
    q: Queryable,
    row: Omit<HistoryRow, 'id' | 'created_at'> & { team_id: string; actor_user_id: string },
  ): Promise<string> {
    const [inserted] = await q.query<{ id: string }>(
      `insert into policy_history (team_id, actor_user_id, actor_email, scope, group_id, group_name, action, restored_from, before, after)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id::text as id`,
      [
        row.team_id,
        row.actor_user_id,
        row.actor_email,
        row.scope,
        row.group_id,
        row.group_name,
        row.action,
        row.restored_from,
        JSON.stringify(row.before),
        JSON.stringify(row.after),
      ],
    );
    return inserted?.id as string;
  },

  async historyPage(q: Queryable, teamId: string, page: number, pageSize: number): Promise<HistoryRow[]> {
    return q.query<HistoryRow>(
      `select ${HISTORY_COLUMNS} from policy_history where team_id = $1 order by policy_history.id desc limit $2 offset $3`,
      [teamId, pageSize, (page - 1) * pageSize],
    );
  },

  async historyCount(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>('select count(*)::int as n from policy_history where team_id = $1', [teamId]);
    return row?.n ?? 0;
  },

  async historyEntry(q: Queryable, teamId: string, id: string): Promise<HistoryRow | null> {
    const [row] = await q.query<HistoryRow>(`select ${HISTORY_COLUMNS} from policy_history where team_id = $1 and id = $2`, [
      teamId,
      id,
    ]);
    return row ?? null;
  },
};
