import { z } from 'zod';
import { RULES } from './access.ts';
import { DEFAULT_PAGE_SIZE } from './constants.ts';
import { defineEndpoint } from './endpoint.ts';
import { AUDIT_FIELDS } from './services-constants.ts';

/** Page and size of a Hub table; sent in the body like the rest of a Hub call. */
export const Paging = {
  page: z.number().int().min(1).max(100_000).default(1),
  page_size: z.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
};
export const PageInfo = { total: z.number().int(), pages: z.number().int() };

export const VaultSummary = z.object({
  summary_id: z.string(),
  email: z.string(),
  total_items: z.number().int(),
  weak: z.number().int(),
  reused: z.number().int(),
  old: z.number().int(),
  compromised: z.number().int(),
  score: z.number().int(),
  updated_at: z.string(),
});
export type VaultSummary = z.infer<typeof VaultSummary>;

export const auditSummariesEndpoint = defineEndpoint({
  name: 'auditSummaries',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/audit/vault/summaries/',
  auth: 'hubAuth',
  access: RULES.audit,
  errors: ['service_disabled'],
  summary: "Each member's vault health, sorted (ordering: field_id, desc) and paged, with the team's totals.",
  input: z.object({
    team_slug: z.string().max(100),
    ...Paging,
    ordering: z.object({ field_id: z.enum(AUDIT_FIELDS), desc: z.boolean() }).default({ field_id: 'score', desc: false }),
    search_value: z.string().trim().max(100).default(''),
  }),
  output: z.object({
    results: z.array(VaultSummary),
    ...PageInfo,
    totals: z.object({
      members: z.number().int(),
      average_score: z.number().int().nullable(),
      weak: z.number().int(),
      reused: z.number().int(),
      old: z.number().int(),
      compromised: z.number().int(),
    }),
  }),
});

export const auditSummaryEndpoint = defineEndpoint({
  name: 'auditSummary',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/audit/vault/summary/',
  auth: 'hubAuth',
  access: RULES.audit,
  errors: ['service_disabled', 'not_found'],
  summary: "One member's vault summary and the devices that report it.",
  input: z.object({ team_slug: z.string().max(100), summary_id: z.uuid() }),
  output: z.object({
    summary: VaultSummary,
    devices: z.array(z.object({ name: z.string(), os: z.string(), app_version: z.string(), last_seen_at: z.string() })),
  }),
});

/** The security audit's yardstick, derived from the team's password policy (see the server's hub-services service). */
export const AuditPolicy = z.object({
  old_password_days: z.number().int(),
  at_risk_below_score: z.number().int(),
  weak_below_length: z.number().int(),
  require_uppercase: z.boolean(),
  require_lowercase: z.boolean(),
  require_digits: z.boolean(),
  require_symbols: z.boolean(),
  flag_breached: z.boolean(),
});

export const auditPolicyEndpoint = defineEndpoint({
  name: 'auditPolicy',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/audit/policy/',
  auth: 'session',
  access: RULES.audit,
  summary:
    "The team's audit policy, from its password policy: when a password counts as weak or old, and below which score a vault is at risk.",
  input: z.object({}).passthrough(),
  output: z.object({ policy: AuditPolicy }),
});
