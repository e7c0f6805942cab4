import {
  diffPolicyMaps,
  type EffectivePolicyItem,
  type GroupPolicy,
  type HistoryEntry,
  isLooser,
  NO_PRIORITY,
  type NotEnforced,
  type PolicyChange,
  type TeamPolicy,
  type TeamPolicyEntry,
} from '@latchkey/contracts';
import { AppError, type Db, type Queryable } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { teamRepository } from '../team/index.ts';
import { type PolicyWorld, resolveEffectivePolicy, samePolicy } from './effective-policy.ts';
import { type HistoryRow, type OverrideGroup, policiesRepository as repo } from './policies.repository.ts';
import { addPolicyHistory } from './policy-history.ts';

type TeamPatch = Record<string, TeamPolicyEntry | { policy: 'auto' }>;
interface GroupChange {
  group_id: string;
  policy_json: GroupPolicy;
  not_enforced_json: NotEnforced;
  priority_level?: number | undefined;
}
interface GroupState {
  policy_json: GroupPolicy;
  not_enforced_json: NotEnforced;
  priority_level: number;
}

/** A proposed change: the team policy's patch, or a group's new policy. */
export type PolicyChangeRequest = { scope: 'team'; policy_json: TeamPatch } | ({ scope: 'group' } & GroupChange);

/** One member's effective value got looser, or stopped being enforced. */
function loosened(before: EffectivePolicyItem, after: EffectivePolicyItem | undefined): boolean {
  if (!after) return false;
  return isLooser(before.key, before.value, after.value) || (before.enforced && !after.enforced);
}

const groupNotFound = () => new AppError('not_found', 'No such group in this team.', 404).shows('errors.group_not_found');

/** The team policy after a patch: 'auto' removes the key; empty scoping lists are dropped. */
function applyTeamPatch(current: TeamPolicy, patch: TeamPatch): TeamPolicy {
  const next: TeamPolicy = { ...current };
  for (const [key, entry] of Object.entries(patch)) {
    if (entry.policy === 'auto') {
      delete next[key];
      continue;
    }
    const clean: TeamPolicyEntry = { policy: entry.policy };
    const { include, exclude } = entry as TeamPolicyEntry;
    if (include?.length) clean.include = [...new Set(include.map((e) => e.toLowerCase()))];
    if (exclude?.length) clean.exclude = [...new Set(exclude.map((e) => e.toLowerCase()))];
    next[key] = clean;
  }
  return next;
}

/** A group's state after a change: not_enforced only for keys it sets; empty means no override (spec §4). */
function nextGroupState(change: GroupChange, currentPriority: number, nextFree: number): GroupState {
  const keys = Object.keys(change.policy_json);
  if (keys.length === 0) return { policy_json: {}, not_enforced_json: {}, priority_level: NO_PRIORITY };
  const notEnforced: NotEnforced = {};
  for (const key of keys) if (change.not_enforced_json[key]) notEnforced[key] = true;
  const priority = change.priority_level ?? (currentPriority < NO_PRIORITY ? currentPriority : nextFree);
  return { policy_json: { ...change.policy_json }, not_enforced_json: notEnforced, priority_level: priority };
}

/** The per-key difference of a history entry; a group's not-enforced flag and priority count as changes too. */
function historyChanges(row: Pick<HistoryRow, 'scope' | 'before' | 'after'>): PolicyChange[] {
  if (row.scope === 'team') {
    return diffPolicyMaps(
      (row.before.policy_json ?? {}) as Record<string, unknown>,
      (row.after.policy_json ?? {}) as Record<string, unknown>,
    );
  }
  const flat = (s: Record<string, unknown>) => {
    const policy = (s.policy_json ?? {}) as GroupPolicy;
    const notEnforced = (s.not_enforced_json ?? {}) as NotEnforced;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(policy))
      out[key] = notEnforced[key] ? { policy: value, not_enforced: true } : value;
    if (s.priority_level !== undefined && s.priority_level !== NO_PRIORITY) out.priority_level = s.priority_level;
    return out;
  };
  return diffPolicyMaps(flat(row.before), flat(row.after));
}

function toEntry(row: HistoryRow): HistoryEntry {
  return {
    id: row.id,
    created_at: new Date(row.created_at).toISOString(),
    actor_email: row.actor_email,
    scope: row.scope,
    group_id: row.group_id,
    group_name: row.group_name,
    action: row.action,
    restored_from: row.restored_from,
    changed_keys: historyChanges(row).map((c) => c.key),
    approved_by: row.approved_by ?? [],
  };
}

export function createPoliciesService(db: Db) {
  async function world(q: Queryable, teamId: string): Promise<PolicyWorld> {
    return { team: await repo.teamPolicy(q, teamId), groups: await repo.overrideGroups(q, teamId) };
  }

  /** The team's policies as they would be after `change` (the impact preview's and the relax check's). */
  async function proposedWorld(
    q: Queryable,
    caller: Caller,
    now: PolicyWorld,
    change: PolicyChangeRequest,
  ): Promise<PolicyWorld> {
    if (change.scope === 'team') return { ...now, team: applyTeamPatch(now.team, change.policy_json) };
    const group = await repo.group(q, caller.team.id, change.group_id);
    if (!group) throw groupNotFound();
    const state = nextGroupState(change, group.priority_level, await repo.nextPriority(q, caller.team.id, NO_PRIORITY));
    const others = now.groups.filter((g) => g.id !== group.id);
    const mine: OverrideGroup[] = Object.keys(state.policy_json).length ? [{ id: group.id, name: group.name, ...state }] : [];
    return {
      ...now,
      groups: [...others, ...mine].sort(
        (a, b) => a.priority_level - b.priority_level || a.name.toLowerCase().localeCompare(b.name.toLowerCase()),
      ),
    };
  }

  async function assertMembers(q: Queryable, teamId: string, policy: TeamPolicy | TeamPatch): Promise<void> {
    const emails = Object.values(policy).flatMap((e) => [
      ...((e as TeamPolicyEntry).include ?? []),
      ...((e as TeamPolicyEntry).exclude ?? []),
    ]);
    const strangers = await repo.notMembers(q, teamId, [...new Set(emails)]);
    if (strangers.length) throw new AppError('invalid_input', `${strangers[0]} is not a member of this team.`);
  }

  /**
   * The policy keys the change would relax for someone: a looser value, or a value no longer
   * enforced, for a current member or for a member in no group (so a team change relaxes even
   * before the team has members).
   */
  async function relaxedKeysOf(q: Queryable, caller: Caller, change: PolicyChangeRequest): Promise<string[]> {
    const now = await world(q, caller.team.id);
    const proposed = await proposedWorld(q, caller, now, change);
    const people = [...(await repo.memberships(q, caller.team.id)), { email: '', group_ids: [] as string[] }];
    const relaxed = new Set<string>();
    for (const m of people) {
      const before = resolveEffectivePolicy(now, m.email, m.group_ids);
      const after = new Map(resolveEffectivePolicy(proposed, m.email, m.group_ids).map((i) => [i.key, i]));
      for (const item of before) if (loosened(item, after.get(item.key))) relaxed.add(item.key);
    }
    return [...relaxed].sort();
  }

  /** Writes a group's new state and its history entry; the caller holds the transaction and the team lock. */
  async function writeGroup(
    tx: Queryable,
    caller: Caller,
    change: GroupChange,
    action: 'update' | 'restore',
    restoredFrom: string | null = null,
  ) {
    const group = await repo.group(tx, caller.team.id, change.group_id, true);
    if (!group) throw groupNotFound();
    const relaxed = await relaxedKeysOf(tx, caller, { scope: 'group', ...change });
    const current = await repo.groupPolicy(tx, group.id);
    const before: GroupState = {
      policy_json: current?.policy_json ?? {},
      not_enforced_json: current?.not_enforced_json ?? {},
      priority_level: group.priority_level,
    };
    const after = nextGroupState(change, group.priority_level, await repo.nextPriority(tx, caller.team.id, NO_PRIORITY));
    if (Object.keys(after.policy_json).length === 0) await repo.clearGroupPolicy(tx, group.id, NO_PRIORITY);
    else await repo.saveGroupPolicy(tx, caller.team.id, group.id, after, after.priority_level);
    const id = await addPolicyHistory(
      tx,
      {
        team_id: caller.team.id,
        actor_user_id: caller.userId,
        actor_email: caller.email,
        scope: 'group',
        group_id: group.id,
        group_name: group.name,
        action,
        restored_from: restoredFrom,
        before: { ...before },
        after: { ...after },
        approved_by: caller.approvedBy,
      },
      relaxed,
    );
    return {
      id,
      group: { ...group, policy_override: after.priority_level !== NO_PRIORITY, priority_level: after.priority_level },
    };
  }

  async function writeTeam(
    tx: Queryable,
    caller: Caller,
    next: TeamPolicy,
    action: 'update' | 'restore',
    restoredFrom: string | null = null,
  ) {
    const before = await repo.teamPolicy(tx, caller.team.id);
    // The change as a patch (a key gone is `auto`), so it is told to relax as the approvals gate tells it.
    const patch = { ...next } as TeamPatch;
    for (const key of Object.keys(before)) if (!(key in next)) patch[key] = { policy: 'auto' };
    const relaxed = await relaxedKeysOf(tx, caller, { scope: 'team', policy_json: patch });
    await repo.saveTeamPolicy(tx, caller.team.id, next);
    await teamRepository.setPolicyPresent(tx, caller.team.id, Object.keys(next).length > 0);
    return addPolicyHistory(
      tx,
      {
        team_id: caller.team.id,
        actor_user_id: caller.userId,
        actor_email: caller.email,
        scope: 'team',
        group_id: null,
        group_name: null,
        action,
        restored_from: restoredFrom,
        before: { policy_json: before },
        after: { policy_json: next },
        approved_by: caller.approvedBy,
      },
      relaxed,
    );
  }

  return {
    async team(caller: Caller) {
      const policy = await repo.teamPolicy(db, caller.team.id);
      return { policy_json: policy, is_team_policy_present: Object.keys(policy).length > 0 };
    },

    async updateTeam(caller: Caller, patch: TeamPatch) {
      return db.transaction(async (tx) => {
        // A team's policy changes queue behind each other, so each history entry's "before" is the state it replaced.
        await teamRepository.lock(tx, caller.team.id);
        await assertMembers(tx, caller.team.id, patch);
        const next = applyTeamPatch(await repo.teamPolicy(tx, caller.team.id), patch);
        await writeTeam(tx, caller, next, 'update');
        return { code: 'updated' as const, policy_json: next };
      });
    },

    async groups(caller: Caller) {
      return { groups: await repo.groups(db, caller.team.id) };
    },

    async group(caller: Caller, groupId: string) {
      const group = await repo.group(db, caller.team.id, groupId);
      if (!group) throw groupNotFound();
      const policy = await repo.groupPolicy(db, groupId);
      if (!policy) return { code: 'not_found' as const, group };
      return { code: 'ok' as const, group, ...policy, priority_level: group.priority_level };
    },

    async updateGroup(caller: Caller, change: GroupChange) {
      return db.transaction(async (tx) => {
        await teamRepository.lock(tx, caller.team.id);
        const { group } = await writeGroup(tx, caller, change, 'update');
        return { code: 'updated' as const, group };
      });
    },

    async history(caller: Caller, page: number, pageSize: number) {
      const [rows, count] = await Promise.all([
        repo.historyPage(db, caller.team.id, page, pageSize),
        repo.historyCount(db, caller.team.id),
      ]);
      return { results: rows.map(toEntry), count, pages: Math.max(1, Math.ceil(count / pageSize)) };
    },

    /** `q`: the transaction an approval request is recorded in, when it asks (PGlite has one connection). */
    async historyDiff(caller: Caller, id: string, q: Queryable = db) {
      const row = await repo.historyEntry(q, caller.team.id, id);
      if (!row) throw new AppError('not_found', 'No such change.', 404).shows('errors.policy_change_not_found');
      return { entry: toEntry(row), before: row.before, after: row.after, changes: historyChanges(row) };
    },

    /** Makes the version entry `id` produced current again, as a new change. */
    async restore(caller: Caller, id: string) {
      return db.transaction(async (tx) => {
        await teamRepository.lock(tx, caller.team.id);
        const row = await repo.historyEntry(tx, caller.team.id, id);
        if (!row) throw new AppError('not_found', 'No such change.', 404).shows('errors.policy_change_not_found');
        if (row.scope === 'team') {
          // Exactly the version as it was; scoping lists may name members who have left since, which is harmless.
          const next = (row.after.policy_json ?? {}) as TeamPolicy;
          return { code: 'updated' as const, id: await writeTeam(tx, caller, next, 'restore', row.id) };
        }
        const after = row.after as unknown as GroupState;
        const written = await writeGroup(
          tx,
          caller,
          {
            group_id: row.group_id as string,
            policy_json: after.policy_json,
            not_enforced_json: after.not_enforced_json,
            priority_level: after.priority_level === NO_PRIORITY ? undefined : after.priority_level,
          },
          'restore',
          row.id,
        );
        return { code: 'updated' as const, id: written.id };
      });
    },

    /** How many current members' effective policy the proposed change would alter, without saving it. */
    async impact(caller: Caller, change: PolicyChangeRequest) {
      const now = await world(db, caller.team.id);
      const proposed = await proposedWorld(db, caller, now, change);
      const members = await repo.memberships(db, caller.team.id);
      const affected = members.filter(
        (m) =>
          !samePolicy(resolveEffectivePolicy(now, m.email, m.group_ids), resolveEffectivePolicy(proposed, m.email, m.group_ids)),
      ).length;
      return { affected_members: affected, total_members: members.length };
    },

    /** What an approver sees of a proposed change: each key's value before and after. */
    async proposedChanges(caller: Caller, change: PolicyChangeRequest, q: Queryable = db): Promise<PolicyChange[]> {
      if (change.scope === 'team') {
        const current = await repo.teamPolicy(q, caller.team.id);
        return diffPolicyMaps(
          current as Record<string, unknown>,
          applyTeamPatch(current, change.policy_json) as Record<string, unknown>,
        );
      }
      const current = await repo.groupPolicy(q, change.group_id);
      return historyChanges({
        scope: 'group',
        before: (current ?? {}) as Record<string, unknown>,
        after: {
          policy_json: change.policy_json,
          not_enforced_json: change.not_enforced_json,
          priority_level: change.priority_level,
        },
      } as Pick<HistoryRow, 'scope' | 'before' | 'after'>);
    },

    /** The policy keys the change would relax for someone (the approvals gate's `policies.relax`). */
    relaxedKeys: (caller: Caller, change: PolicyChangeRequest, q: Queryable = db): Promise<string[]> =>
      relaxedKeysOf(q, caller, change),

    async effective(caller: Caller, email: string) {
      const member = await repo.member(db, caller.team.id, email);
      if (!member)
        throw new AppError('member_not_found', `${email} is not a member of this team.`).shows('errors.not_members', {
          emails: email,
        });
      const w = await world(db, caller.team.id);
      const groups = (await repo.groups(db, caller.team.id))
        .filter((g) => member.group_ids.includes(g.id))
        .map((g) => ({ id: g.id, name: g.name, priority_level: g.priority_level }));
      return {
        email: member.email,
        name: member.name,
        groups,
        policies: resolveEffectivePolicy(w, member.email, member.group_ids),
      };
    },
  };
}
