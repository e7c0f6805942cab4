import { z } from 'zod';
import { ALL_TEAM_TYPES, DEFAULT_ROLES, RULES, SCOPES, type Scope } from './access.ts';
import { defineEndpoint, type Program } from './endpoint.ts';

/**
 * Four-eyes approval: a team may require a second administrator's approval before a sensitive
 * change. The policy is off by default, and then every call behaves as if this module did not exist.
 * docs/approvals.md explains the model; this module is its contract for the console, the server and the Hub.
 */

/**
 * When an approved request runs:
 * - `on_approval`: the last approval runs it, in the same transaction that closes the request
 *   (the requester sees the result in their request);
 * - `by_requester`: its answer is for the requester's eyes only (a token shown once, a CSV): the
 *   approval only allows it, and the requester's next identical call runs it, once. The Hub's
 *   calls are all by_requester: the server holds the approval, the Hub the data, and no
 *   transaction spans both programs.
 */
export type ApprovalApply = 'on_approval' | 'by_requester';

export interface ApprovalActionInfo {
  /** Which program serves the gated call (the gate runs where the call is served). */
  program: Program;
  /** The scopes an approver must hold: those of the call's own access rule. */
  approverScopes: readonly Scope[];
  apply: ApprovalApply;
  /** The gated calls, by endpoint name (what answers 202 approval_required). */
  endpoints: readonly string[];
  /** Reserved for another mechanism (just-in-time rights): not offered in the policy's list. */
  reserved?: boolean;
  /** false: in the policy, but no gate enforces it yet (the console says so; docs/approvals.md). */
  enforced?: false;
}

const SUPER: readonly Scope[] = ['super_admin'];

/** The action classes, by stable code: the policy's vocabulary, each request's `action`, and the event log's. */
export const APPROVAL_ACTIONS = {
  'admins.add': { program: 'server', approverScopes: SUPER, apply: 'on_approval', endpoints: ['adminAdd'] },
  'admins.remove': { program: 'server', approverScopes: SUPER, apply: 'on_approval', endpoints: ['adminRemove'] },
  /** Changing an existing admin's scopes: no call does it yet (the console removes and adds); ready for it. */
  'admins.scopes': { program: 'server', approverScopes: SUPER, apply: 'on_approval', endpoints: [], enforced: false },
  'admins.reset_sign_in': { program: 'server', approverScopes: SUPER, apply: 'on_approval', endpoints: ['adminAuthReset'] },
  /** A team or group policy change the impact preview shows as relaxing a rule. */
  'policies.relax': {
    program: 'server',
    approverScopes: DEFAULT_ROLES,
    apply: 'on_approval',
    endpoints: ['policyTeamUpdate', 'policyGroupUpdate'],
  },
  'policies.restore': {
    program: 'server',
    approverScopes: DEFAULT_ROLES,
    apply: 'on_approval',
    endpoints: ['policyHistoryRestore'],
  },
  'sso.connector': {
    program: 'server',
    approverScopes: SUPER,
    apply: 'on_approval',
    endpoints: ['ssoConfigCreate', 'ssoConfigUpdate', 'ssoConfigDelete', 'ssoConfigActivate', 'ssoConfigDeactivate'],
  },
  'sso.require_off': { program: 'server', approverScopes: SUPER, apply: 'on_approval', endpoints: ['ssoPolicyUpdate'] },
  'sso.exclusions': { program: 'server', approverScopes: SUPER, apply: 'on_approval', endpoints: ['ssoExcludedAdmins'] },
  'scim.connector': { program: 'server', approverScopes: SUPER, apply: 'by_requester', endpoints: ['scimConnectorCreate'] },
  'scim.rotate': { program: 'server', approverScopes: SUPER, apply: 'by_requester', endpoints: ['scimConnectorRotate'] },
  'scim.revoke': { program: 'server', approverScopes: SUPER, apply: 'on_approval', endpoints: ['scimConnectorRevoke'] },
  'eventlogs.retention_shortened': {
    program: 'hub',
    approverScopes: SUPER,
    apply: 'by_requester',
    endpoints: ['auditLogsConfigurationUpdate'],
  },
  'siem.off': {
    program: 'hub',
    approverScopes: SUPER,
    apply: 'by_requester',
    endpoints: ['siemToolUpdate', 'auditLogsConfiguration'],
  },
  'siem.destination': {
    program: 'hub',
    approverScopes: SUPER,
    apply: 'by_requester',
    endpoints: ['siemToolsConfigure', 'siemToolUpdate'],
  },
  'siem.pull_token': { program: 'hub', approverScopes: SUPER, apply: 'by_requester', endpoints: ['auditLogsPullToken'] },
  /** Directory sync: saving or forgetting the connection, applying a preview, syncing now. */
  'directory.settings': {
    program: 'hub',
    approverScopes: SUPER,
    apply: 'by_requester',
    endpoints: ['directorySave', 'directoryDelete', 'directoryApply', 'directorySyncNow'],
  },
  'members.export': { program: 'server', approverScopes: DEFAULT_ROLES, apply: 'by_requester', endpoints: ['membersExport'] },
  'members.bulk_remove': { program: 'server', approverScopes: DEFAULT_ROLES, apply: 'on_approval', endpoints: ['membersRemove'] },
  'billing.licences_removed': {
    program: 'server',
    approverScopes: SUPER,
    apply: 'on_approval',
    endpoints: ['billingLicenceRemove'],
  },
  'billing.plan': { program: 'server', approverScopes: SUPER, apply: 'on_approval', endpoints: ['billingPlanChange'] },
  'approvals.policy': { program: 'server', approverScopes: SUPER, apply: 'on_approval', endpoints: ['approvalPolicyUpdate'] },
  /** Just-in-time elevation to a scope: requested and approved through this module, built by the JIT room. */
  'admins.elevate': { program: 'server', approverScopes: SUPER, apply: 'on_approval', endpoints: [], reserved: true },
} as const satisfies Record<string, ApprovalActionInfo>;

export type ApprovalAction = keyof typeof APPROVAL_ACTIONS;
export const APPROVAL_ACTION_CODES = Object.keys(APPROVAL_ACTIONS) as ApprovalAction[];
/** The classes a team may put under its policy (reserved ones are governed elsewhere). */
export const POLICY_ACTION_CODES = APPROVAL_ACTION_CODES.filter(
  (code) => !(APPROVAL_ACTIONS[code] as ApprovalActionInfo).reserved,
);
export const ApprovalActionCode = z.enum(APPROVAL_ACTION_CODES as [ApprovalAction, ...ApprovalAction[]]);

/** Members bulk remove: removing at least this many members at once is a bulk removal. */
export const BULK_REMOVE_MIN = 2;

export const APPROVAL_DEFAULTS = { approvers: 2, expiryHours: 24 } as const;
export const APPROVAL_LIMITS = { minApprovers: 2, maxApprovers: 5, minExpiryHours: 1, maxExpiryHours: 168 } as const;

/**
 * The team's approval policy. `approvers` is M: the people who must agree, the requester
 * included (2 = one other person). `self_elevate_scopes`: the scopes an admin may take just in
 * time with a logged reason but without an approver (the JIT room reads it; empty by default).
 */
export const ApprovalPolicy = z.object({
  enabled: z.boolean(),
  actions: z
    .array(z.enum(POLICY_ACTION_CODES as [ApprovalAction, ...ApprovalAction[]]))
    .max(POLICY_ACTION_CODES.length)
    .transform((a) => [...new Set(a)]),
  approvers: z
    .number()
    .int()
    .min(APPROVAL_LIMITS.minApprovers, 'errors.approval_policy_approvers')
    .max(APPROVAL_LIMITS.maxApprovers, 'errors.approval_policy_approvers'),
  expiry_hours: z
    .number()
    .int()
    .min(APPROVAL_LIMITS.minExpiryHours, 'errors.approval_policy_expiry')
    .max(APPROVAL_LIMITS.maxExpiryHours, 'errors.approval_policy_expiry'),
  self_elevate_scopes: z
    .array(z.enum(SCOPES))
    .max(SCOPES.length)
    .default([])
    .transform((s) => [...new Set(s)]),
});
export type ApprovalPolicy = z.output<typeof ApprovalPolicy>;

/** A team that never set a policy has this one: off, every class listed for when it is switched on. */
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = {
  enabled: false,
  actions: [...POLICY_ACTION_CODES],
  approvers: APPROVAL_DEFAULTS.approvers,
  expiry_hours: APPROVAL_DEFAULTS.expiryHours,
  self_elevate_scopes: [],
};

/**
 * Who could approve: distinct people (not sessions, not roles) holding the scope. `locked_out`:
 * fewer than M−1 people besides a requester could approve, so requests wait for the operator.
 */
export const ApproverCount = z.object({ eligible_approvers: z.number().int(), locked_out: z.boolean() });

/** `failed`: approved, but the action refused to run (what it changes changed meanwhile): nothing ran. */
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'withdrawn', 'applied', 'failed'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const ApprovalPerson = z.object({ email: z.string(), name: z.string() });

export const ApprovalDecision = ApprovalPerson.extend({
  decision: z.enum(['approved', 'rejected']),
  comment: z.string(),
  at: z.string(),
  /** True when the operator decided at the server's command line (break-glass); email is then 'operator'. */
  operator: z.boolean(),
});

/** One field of what was asked, before and after (the policy diff view's shape). */
export const ApprovalChange = z.object({
  key: z.string(),
  kind: z.enum(['added', 'removed', 'changed']),
  before: z.unknown(),
  after: z.unknown(),
});
export type ApprovalChange = z.infer<typeof ApprovalChange>;

export const ApprovalRequest = z.object({
  id: z.string(),
  action: ApprovalActionCode,
  status: z.enum(APPROVAL_STATUSES),
  requester: ApprovalPerson,
  /** What was asked, in English for logs and mails; the console shows `action`'s label and `changes`. */
  summary: z.string(),
  /** The exact payload that will run (secrets never appear here: only what the caller sent). */
  payload: z.record(z.string(), z.unknown()),
  /** SHA-256 of the payload's canonical JSON: a different payload is a different request. */
  payload_hash: z.string(),
  changes: z.array(ApprovalChange),
  approvals: z.array(ApprovalDecision),
  /** M: people who must agree, the requester included. */
  approvers_required: z.number().int(),
  apply: z.enum(['on_approval', 'by_requester']),
  created_at: z.string(),
  expires_at: z.string(),
  closed_at: z.string().nullable(),
  /** Why it closed without running: a withdrawal's or the operator's reason, or an apply's error. */
  closed_reason: z.string().nullable(),
  /** For the caller: may they approve or reject it now, and may they withdraw it. */
  can_decide: z.boolean(),
  can_withdraw: z.boolean(),
  ...ApproverCount.shape,
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/**
 * The answer (HTTP 202) of a call that needs approval: nothing changed; the request waits.
 * Every gated endpoint lists `approval_required` in its errors; the console tells it from an
 * error by the 202 status and shows "Waiting for approval by another super admin — requested …".
 */
export const ApprovalRequired = z.object({
  code: z.literal('approval_required'),
  request_id: z.string(),
  description: z.string(),
  message_key: z.string().optional(),
  message_values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type ApprovalRequired = z.infer<typeof ApprovalRequired>;
export const isApprovalRequired = (body: unknown): body is ApprovalRequired =>
  typeof body === 'object' && body !== null && (body as { code?: unknown }).code === 'approval_required';

const RequestId = z.string().regex(/^[0-9a-f-]{36}$/, 'errors.approval_not_found');
const Comment = z.string().trim().max(1000, 'errors.approval_comment_too_long');

/** Who sees the approvals screen: every admin who could ask or approve. */
const APPROVALS_RULE = { roles: DEFAULT_ROLES, teamTypes: ALL_TEAM_TYPES } as const;

export const approvalPolicyEndpoint = defineEndpoint({
  name: 'approvalPolicy',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/approvals/policy/',
  auth: 'session',
  access: RULES.superAdminAnyTeam,
  summary:
    "The team's approval policy (off by default), and how many people could approve: locked_out when fewer than M could, so requests would wait for the operator.",
  input: z.object({}).passthrough(),
  output: z.object({ policy: ApprovalPolicy, actions: z.array(ApprovalActionCode), ...ApproverCount.shape }),
});

export const approvalPolicyUpdateEndpoint = defineEndpoint({
  name: 'approvalPolicyUpdate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/approvals/policy/update/',
  auth: 'session',
  access: RULES.superAdminAnyTeam,
  errors: ['approval_required'],
  summary:
    "Set the team's approval policy; while the current policy lists approvals.policy, the change itself waits for approval (202).",
  input: z.object({ policy: ApprovalPolicy }),
  output: z.object({ code: z.literal('updated'), policy: ApprovalPolicy, ...ApproverCount.shape }),
});

export const APPROVAL_VIEWS = ['pending_for_me', 'mine', 'all'] as const;

export const approvalsEndpoint = defineEndpoint({
  name: 'approvals',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/approvals/',
  auth: 'session',
  access: APPROVALS_RULE,
  summary:
    "The team's approval requests, newest first: those the caller may decide now (pending_for_me), the caller's own (mine), or all (history).",
  input: z.object({
    view: z.enum(APPROVAL_VIEWS).default('all'),
    page: z.number().int().min(1).default(1),
    page_size: z.number().int().min(1).max(100).default(25),
  }),
  output: z.object({ results: z.array(ApprovalRequest), count: z.number().int(), pending_for_me: z.number().int() }),
});

export const approvalsCountEndpoint = defineEndpoint({
  name: 'approvalsCount',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/approvals/count/',
  auth: 'session',
  access: APPROVALS_RULE,
  summary: 'How many pending requests the caller may decide (the top bar count).',
  input: z.object({}).passthrough(),
  output: z.object({ pending_for_me: z.number().int() }),
});

export const approvalEndpoint = defineEndpoint({
  name: 'approval',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/approvals/request/',
  auth: 'session',
  access: APPROVALS_RULE,
  errors: ['approval_not_found'],
  summary: 'One approval request, with its approvals and what was asked.',
  input: z.object({ id: RequestId }),
  output: ApprovalRequest,
});

export const approvalDecideEndpoint = defineEndpoint({
  name: 'approvalDecide',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/approvals/decide/',
  auth: 'session',
  access: APPROVALS_RULE,
  errors: ['approval_not_found', 'approval_closed', 'approval_own_request', 'approval_already_decided', 'approval_scope_missing'],
  summary:
    "Approve or reject a pending request, with a comment. The requester cannot; one person counts once however many sessions or scopes they have; the approver must hold the action's scope. The last approval runs an on_approval action in the same transaction.",
  input: z.object({ id: RequestId, decision: z.enum(['approve', 'reject']), comment: Comment.default('') }),
  output: ApprovalRequest,
});

export const approvalWithdrawEndpoint = defineEndpoint({
  name: 'approvalWithdraw',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/approvals/withdraw/',
  auth: 'session',
  access: APPROVALS_RULE,
  errors: ['approval_not_found', 'approval_closed', 'forbidden'],
  summary: 'The requester withdraws a pending (or approved, not yet run) request: it can never run.',
  input: z.object({ id: RequestId, comment: Comment.default('') }),
  output: ApprovalRequest,
});

/** Event log actions (the team's event log and its SIEM export), each with the request id in its detail. */
export const APPROVAL_EVENTS = [
  'approval_requested',
  'approval_approved',
  'approval_rejected',
  'approval_expired',
  'approval_withdrawn',
  'approval_applied',
  'approval_apply_failed',
  'approval_operator_approved',
  'approval_operator_cleared',
  'approval_policy_changed',
] as const;
export type ApprovalEvent = (typeof APPROVAL_EVENTS)[number];
