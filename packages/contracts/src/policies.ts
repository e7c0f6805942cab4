import { z } from 'zod';
import { RULES } from './access.ts';
import { Email } from './auth.ts';
import { DEFAULT_PAGE_SIZE, NO_PRIORITY } from './constants.ts';
import { defineEndpoint } from './endpoint.ts';
import { MAX_PAGE_SIZE } from './members-constants.ts';
import { policyDefinition, policyValueProblem } from './policy-catalogue.ts';

export * from './policy-catalogue.ts';
export * from './policy-strictness.ts';

// ── Policies (spec §3 Policy, §4 Policy editing, §5, §7 Team API, §8 Policy save) ──────────────

export const PolicyValueSchema = z.union([z.boolean(), z.number(), z.string().max(100)]);
const Emails = z.array(Email).max(1000);
const GroupId = z.uuid('Choose a group.');
/** A real priority; 999999 (spec §9) means none and is set by the server alone. */
export const PriorityLevel = z
  .number()
  .int()
  .min(1)
  .max(NO_PRIORITY - 1);

/** Adds an issue per key whose value the catalogue refuses; the path is the key, so the console can mark the field. */
function checkValues(map: Record<string, unknown>, ctx: z.RefinementCtx, pick: (v: unknown) => unknown) {
  for (const [key, raw] of Object.entries(map)) {
    const value = pick(raw);
    if (value === 'auto') {
      if (policyDefinition(key)?.non_removable)
        ctx.addIssue({ code: 'custom', path: [key], message: `${key} always has a value.` });
      else if (!policyDefinition(key)) ctx.addIssue({ code: 'custom', path: [key], message: `Unknown policy ${key}.` });
      continue;
    }
    const problem = policyValueProblem(key, value);
    if (problem) ctx.addIssue({ code: 'custom', path: [key], message: problem.message });
  }
}

export const TeamPolicyEntrySchema = z.object({
  policy: PolicyValueSchema,
  include: Emails.optional(),
  exclude: Emails.optional(),
});
export const TeamPolicySchema = z.record(z.string().max(60), TeamPolicyEntrySchema);

/** A change to the team policy: only the keys given change; the value 'auto' removes a key (spec §4). */
export const TeamPolicyPatch = z
  .record(z.string().max(60), TeamPolicyEntrySchema)
  .superRefine((map, ctx) => checkValues(map, ctx, (e) => (e as { policy: unknown }).policy));

export const GroupPolicySchema = z.record(z.string().max(60), PolicyValueSchema).superRefine((map, ctx) => {
  checkValues(map, ctx, (v) => v);
  for (const key of Object.keys(map)) {
    if (policyDefinition(key) && !policyDefinition(key)?.is_editable)
      ctx.addIssue({ code: 'custom', path: [key], message: `${key} is set for the whole team only.` });
  }
});
export const NotEnforcedSchema = z.record(z.string().max(60), z.boolean());

export const TeamPolicyState = z.object({ policy_json: TeamPolicySchema });
export const GroupPolicyState = z.object({
  policy_json: z.record(z.string(), PolicyValueSchema),
  not_enforced_json: NotEnforcedSchema,
  priority_level: z.number().int(),
});

export const policyTeamEndpoint = defineEndpoint({
  name: 'policyTeam',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/',
  auth: 'session',
  access: RULES.policies,
  summary: 'The team policy: each set key with its value and member scoping (include / exclude emails).',
  input: z.object({}).passthrough(),
  output: z.object({ policy_json: TeamPolicySchema, is_team_policy_present: z.boolean() }),
});

export const policyTeamUpdateEndpoint = defineEndpoint({
  name: 'policyTeamUpdate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/update/',
  auth: 'session',
  access: RULES.policies,
  errors: ['approval_required'],
  summary: "Change team policy keys ('auto' removes a key); the change and its history entry land together.",
  input: z.object({ policy_json: TeamPolicyPatch }),
  output: z.object({ code: z.literal('updated'), policy_json: TeamPolicySchema }),
});

export const PolicyGroup = z.object({
  id: z.string(),
  name: z.string(),
  policy_override: z.boolean(),
  priority_level: z.number().int(),
  member_count: z.number().int(),
});
export type PolicyGroup = z.infer<typeof PolicyGroup>;

export const policyGroupsEndpoint = defineEndpoint({
  name: 'policyGroups',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/groups/',
  auth: 'session',
  access: RULES.policies,
  summary: 'Every group with its override flag and priority, highest priority (lowest number) first.',
  input: z.object({}).passthrough(),
  output: z.object({ groups: z.array(PolicyGroup) }),
});

export const policyGroupEndpoint = defineEndpoint({
  name: 'policyGroup',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/group/',
  auth: 'session',
  access: RULES.policies,
  errors: ['not_found'],
  summary: "A group's policy; code 'not_found' when the group has none (read as an empty policy, spec §8).",
  input: z.object({ group_id: GroupId }),
  output: z.discriminatedUnion('code', [
    z.object({ code: z.literal('ok'), group: PolicyGroup }).extend(GroupPolicyState.shape),
    z.object({ code: z.literal('not_found'), group: PolicyGroup }),
  ]),
});

export const GroupPolicyUpdate = z.object({
  group_id: GroupId,
  policy_json: GroupPolicySchema,
  not_enforced_json: NotEnforcedSchema.default({}),
  /** Omitted: keep the group's priority, or take the next free one. Ignored for an empty policy. */
  priority_level: PriorityLevel.optional(),
});

export const policyGroupUpdateEndpoint = defineEndpoint({
  name: 'policyGroupUpdate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/group/update/',
  auth: 'session',
  access: RULES.policies,
  errors: ['not_found', 'approval_required'],
  summary:
    "Replace a group's policy and priority; an empty policy resets policy_override to false and the priority to 999999 (spec §4).",
  input: GroupPolicyUpdate,
  output: z.object({ code: z.literal('updated'), group: PolicyGroup }),
});

export const PolicyScope = z.enum(['team', 'group']);
export const HistoryEntry = z.object({
  id: z.string(),
  created_at: z.string(),
  actor_email: z.string(),
  scope: PolicyScope,
  group_id: z.string().nullable(),
  group_name: z.string().nullable(),
  action: z.enum(['update', 'restore']),
  restored_from: z.string().nullable(),
  changed_keys: z.array(z.string()),
  /** Who approved the change (names), when it waited for four-eyes approval; empty otherwise. */
  approved_by: z.array(z.string()),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const policyHistoryEndpoint = defineEndpoint({
  name: 'policyHistory',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/history/',
  auth: 'session',
  access: RULES.policyHistory,
  summary: 'Policy changes, newest first, one page at a time.',
  input: z.object({
    page: z.number().int().min(1).default(1),
    page_size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  }),
  output: z.object({ results: z.array(HistoryEntry), count: z.number().int(), pages: z.number().int() }),
});

export const PolicyChangeSchema = z.object({
  key: z.string(),
  kind: z.enum(['added', 'removed', 'changed']),
  before: z.unknown(),
  after: z.unknown(),
});

const HistoryId = z.string().regex(/^\d{1,18}$/, 'No such change.');

export const policyHistoryDiffEndpoint = defineEndpoint({
  name: 'policyHistoryDiff',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/history/diff/',
  auth: 'session',
  access: RULES.policyHistory,
  errors: ['not_found'],
  summary: 'One change: the full before and after, and the difference per key.',
  input: z.object({ id: HistoryId }),
  output: z.object({
    entry: HistoryEntry,
    before: z.record(z.string(), z.unknown()),
    after: z.record(z.string(), z.unknown()),
    changes: z.array(PolicyChangeSchema),
  }),
});

export const policyHistoryRestoreEndpoint = defineEndpoint({
  name: 'policyHistoryRestore',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/history/restore/',
  auth: 'session',
  access: RULES.policyHistory,
  errors: ['not_found', 'approval_required'],
  summary: 'Make the version a change produced current again, recorded as a new change.',
  input: z.object({ id: HistoryId }),
  output: z.object({ code: z.literal('updated'), id: z.string() }),
});

export const policyImpactEndpoint = defineEndpoint({
  name: 'policyImpact',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/impact/',
  auth: 'session',
  access: RULES.policies,
  errors: ['not_found'],
  summary: 'How many current members would get a different effective policy if this change were saved.',
  input: z.discriminatedUnion('scope', [
    z.object({ scope: z.literal('team'), policy_json: TeamPolicyPatch }),
    GroupPolicyUpdate.extend({ scope: z.literal('group') }),
  ]),
  output: z.object({ affected_members: z.number().int(), total_members: z.number().int() }),
});

export const EffectivePolicyItem = z.object({
  key: z.string(),
  value: PolicyValueSchema,
  /** product: fixed; default: nothing sets it; team: the team policy; group: the group named. */
  source: z.enum(['product', 'default', 'team', 'group']),
  group_id: z.string().nullable(),
  group_name: z.string().nullable(),
  /** false when the member may change it in the apps (a not-enforced group value, or a default). */
  enforced: z.boolean(),
});
export type EffectivePolicyItem = z.infer<typeof EffectivePolicyItem>;

export const policyEffectiveEndpoint = defineEndpoint({
  name: 'policyEffective',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/member/effective/',
  auth: 'session',
  access: RULES.policies,
  errors: ['member_not_found'],
  summary: "A member's effective policy: the team policy overridden by their groups in priority order, with each value's source.",
  input: z.object({ email: Email }),
  output: z.object({
    email: z.string(),
    name: z.string(),
    groups: z.array(z.object({ id: z.string(), name: z.string(), priority_level: z.number().int() })),
    policies: z.array(EffectivePolicyItem),
  }),
});
