import type { GroupPolicy, NotEnforced, PolicyGroup, TeamPolicy } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { type GroupRow, groupsRepository } from '../groups/index.ts';
import { membersRepository } from '../members/index.ts';

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
  /** Who approved the change, when it waited for four-eyes approval. */
  approved_by: string[];
}

/** A group as the policies screens show it. */
const policyGroup = (g: GroupRow): PolicyGroup => ({
  id: g.id,
  name: g.name,
  policy_override: g.policy_override,
  priority_level: g.priority_level,
  member_count: g.member_count,
});

const HISTORY_COLUMNS = `id::text as id, created_at, actor_email, scope, group_id, group_name, action,
  restored_from::text as restored_from, before, after, approved_by`;

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
    return (await groupsRepository.byPriority(q, teamId)).map(policyGroup);
  },

  async group(q: Queryable, teamId: string, groupId: string, lock = false): Promise<PolicyGroup | null> {
    const row = await groupsRepository.findBrief(q, teamId, groupId, lock);
    return row ? policyGroup(row) : null;
  },

  async groupPolicy(q: Queryable, groupId: string): Promise<GroupPolicyRow | null> {
    const [row] = await q.query<GroupPolicyRow>('select policy_json, not_enforced_json from group_policies where group_id = $1', [
      groupId,
    ]);
    return row ?? null;
  },

  /** These groups' policies, by group id (groups without one are absent). */
  async groupPolicies(q: Queryable, groupIds: string[]): Promise<Map<string, GroupPolicyRow>> {
    if (groupIds.length === 0) return new Map();
    const rows = await q.query<GroupPolicyRow & { group_id: string }>(
      'select group_id, policy_json, not_enforced_json from group_policies where group_id = any($1::uuid[])',
      [groupIds],
    );
    return new Map(rows.map((r) => [r.group_id, { policy_json: r.policy_json, not_enforced_json: r.not_enforced_json }]));
  },

  /** Saves a group's override; its priority moves the groups holding it down, as the groups screen does. */
  async saveGroupPolicy(q: Queryable, teamId: string, groupId: string, state: GroupPolicyRow, priority: number): Promise<void> {
    await q.query(
      `insert into group_policies (group_id, policy_json, not_enforced_json) values ($1, $2, $3)
       on conflict (group_id) do update set policy_json = excluded.policy_json,
         not_enforced_json = excluded.not_enforced_json, updated_at = now()`,
      [groupId, JSON.stringify(state.policy_json), JSON.stringify(state.not_enforced_json)],
    );
    await groupsRepository.setPolicyOverride(q, groupId);
    await groupsRepository.setPriority(q, teamId, groupId, priority);
  },

  /** Spec §4: an empty group policy resets policy_override to false and the priority to 999999. */
  async clearGroupPolicy(q: Queryable, groupId: string, noPriority: number): Promise<void> {
    await q.query('delete from group_policies where group_id = $1', [groupId]);
    await groupsRepository.clearPolicyOverride(q, groupId, noPriority);
  },

  /** The priority after the lowest-ranked overriding group's. */
  async nextPriority(q: Queryable, teamId: string, noPriority: number): Promise<number> {
    return Math.min(await groupsRepository.priorityAfterLast(q, teamId, noPriority), noPriority - 1);
  },

  /** Every overriding group with its policy, highest priority (lowest number) first, ties by name. */
  async overrideGroups(q: Queryable, teamId: string): Promise<OverrideGroup[]> {
    const groups = await groupsRepository.overriding(q, teamId);
    if (groups.length === 0) return [];
    const policies = await policiesRepository.groupPolicies(
      q,
      groups.map((g) => g.id),
    );
    return groups.flatMap((g) => {
      const p = policies.get(g.id);
      return p ? [{ ...g, policy_json: p.policy_json, not_enforced_json: p.not_enforced_json }] : [];
    });
  },

  /** Current members' emails with the groups they belong to. */
  async memberships(q: Queryable, teamId: string): Promise<{ email: string; group_ids: string[] }[]> {
    const members = await membersRepository.currentIdsByEmail(q, teamId);
    const groups = await groupsRepository.groupIdsOfMembers(
      q,
      members.map((m) => m.id),
    );
    return members.map((m) => ({ email: m.email, group_ids: groups.get(m.id) ?? [] }));
  },

  async member(
    q: Queryable,
    teamId: string,
    email: string,
  ): Promise<{ email: string; name: string; group_ids: string[] } | null> {
    const member = await membersRepository.findCurrentAnyCase(q, teamId, email);
    if (!member) return null;
    const groups = await groupsRepository.groupIdsOfMembers(q, [member.id]);
    return { email: member.email, name: member.name, group_ids: groups.get(member.id) ?? [] };
  },

  /** Which of `emails` are not current members of the team. */
  async notMembers(q: Queryable, teamId: string, emails: string[]): Promise<string[]> {
    return membersRepository.notCurrent(q, teamId, emails);
  },

  async addHistory(
    q: Queryable,
    row: Omit<HistoryRow, 'id' | 'created_at' | 'approved_by'> & {
      team_id: string;
      actor_user_id: string;
      approved_by?: readonly string[] | undefined;
    },
  ): Promise<string> {
    const [inserted] = await q.query<{ id: string }>(
      `insert into policy_history (team_id, actor_user_id, actor_email, scope, group_id, group_name, action, restored_from, before, after, approved_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id::text as id`,
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
        [...(row.approved_by ?? [])],
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
