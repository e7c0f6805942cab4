import {
  type GroupPolicy,
  NO_PRIORITY,
  type NotEnforced,
  POLICY_CATALOGUE,
  type PolicyDefinition,
  type PolicyProblem,
  type PolicyValue,
  policyValueProblem,
  type TeamPolicy,
} from '@latchkey/contracts/client';

/** A field's value while editing: 'auto' is "not set here"; '' is an emptied number field. */
export type DraftValue = PolicyValue | 'auto' | '';

export interface TeamDraftEntry {
  value: DraftValue;
  include: string[];
  exclude: string[];
}
export type TeamDraft = Record<string, TeamDraftEntry>;

export interface GroupDraftEntry {
  value: DraftValue;
  not_enforced: boolean;
}
export interface GroupDraft {
  entries: Record<string, GroupDraftEntry>;
  priority: number | '';
}

export const editable = (mode: 'team' | 'group'): PolicyDefinition[] =>
  POLICY_CATALOGUE.filter((d) => !d.readonly && (mode === 'team' || d.is_editable));

export function teamDraft(policy: TeamPolicy): TeamDraft {
  const draft: TeamDraft = {};
  for (const d of editable('team')) {
    const entry = policy[d.key];
    draft[d.key] = {
      value: entry ? entry.policy : d.non_removable ? d.default : 'auto',
      include: entry?.include ?? [],
      exclude: entry?.exclude ?? [],
    };
  }
  return draft;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Only the keys that changed; 'auto' removes a key (spec §4). */
export function teamPatch(saved: TeamDraft, draft: TeamDraft) {
  const patch: Record<string, { policy: PolicyValue; include?: string[]; exclude?: string[] }> = {};
  for (const [key, entry] of Object.entries(draft)) {
    if (same(entry, saved[key])) continue;
    if (entry.value === 'auto') patch[key] = { policy: 'auto' };
    else if (entry.value !== '') {
      patch[key] = { policy: entry.value };
      if (entry.include.length) patch[key].include = entry.include;
      if (entry.exclude.length) patch[key].exclude = entry.exclude;
    }
  }
  return patch;
}

export function groupDraft(policy: GroupPolicy, notEnforced: NotEnforced, priority: number): GroupDraft {
  const entries: Record<string, GroupDraftEntry> = {};
  for (const d of editable('group')) {
    entries[d.key] = {
      value: d.key in policy ? (policy[d.key] as PolicyValue) : 'auto',
      not_enforced: Boolean(notEnforced[d.key]),
    };
  }
  return { entries, priority: priority === NO_PRIORITY ? '' : priority };
}

/** The group's whole new policy: set keys only; an empty one clears the override (spec §4). */
export function groupUpdate(groupId: string, draft: GroupDraft) {
  const policy_json: GroupPolicy = {};
  const not_enforced_json: NotEnforced = {};
  for (const [key, e] of Object.entries(draft.entries)) {
    if (e.value === 'auto' || e.value === '') continue;
    policy_json[key] = e.value;
    if (e.not_enforced) not_enforced_json[key] = true;
  }
  const empty = Object.keys(policy_json).length === 0;
  return {
    group_id: groupId,
    policy_json,
    not_enforced_json,
    ...(empty || draft.priority === '' ? {} : { priority_level: draft.priority }),
  };
}

/** Each field's problem; Save stays disabled while there is one (spec §5). */
export function draftErrors(values: Record<string, DraftValue>, mode: 'team' | 'group'): Record<string, PolicyProblem> {
  const errors: Record<string, PolicyProblem> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === 'auto') continue;
    if (value === '') {
      if (mode === 'team') errors[key] = { message: 'this field is required', key: 'this field is required' };
      continue;
    }
    const problem = policyValueProblem(key, value);
    if (problem) errors[key] = problem;
  }
  return errors;
}

export const isPriorityValid = (p: number | ''): boolean => p === '' || (Number.isInteger(p) && p >= 1 && p < NO_PRIORITY);
