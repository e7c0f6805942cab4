import { z } from 'zod';
import { RULES } from './access.ts';
import { Email } from './auth.ts';
import { DEFAULT_PAGE_SIZE } from './constants.ts';
import { MEMBER_SOURCES } from './directory-constants.ts';
import { defineEndpoint } from './endpoint.ts';
import { HUB_AUTHENTICATION } from './groups-constants.ts';
import { APP_USAGES, LICENSE_STATUSES, MAX_BULK_EMAILS, MAX_PAGE_SIZE, MEMBER_STATUSES } from './members-constants.ts';

export * from './members-constants.ts';

const Done = z.object({ code: z.literal('updated') });

/** The members list and its bulk actions (spec §2 /users). */
export const Member = z.object({
  email: z.string(),
  name: z.string(),
  licensed: z.boolean(),
  usage: z.enum(APP_USAGES),
  status: z.enum(MEMBER_STATUSES),
  onboarded_at: z.string(),
  last_active_at: z.string().nullable(),
  /** Who may change the member: the console, a SCIM connector or directory sync. */
  source: z.enum(MEMBER_SOURCES),
});
export type Member = z.infer<typeof Member>;

export const MemberFilters = z.object({
  search_value: z.string().trim().max(100).optional(),
  license_status: z.array(z.enum(LICENSE_STATUSES)).max(2).optional(),
  app_usage: z.array(z.enum(APP_USAGES)).max(3).optional(),
  source: z.array(z.enum(MEMBER_SOURCES)).max(3).optional(),
  /** Members with (or without) a device authenticated with the Hub; only when a Hub is connected. */
  hub_authentication: z.enum(HUB_AUTHENTICATION).optional(),
});
export type MemberFilters = z.infer<typeof MemberFilters>;

export const membersEndpoint = defineEndpoint({
  name: 'members',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/members/',
  auth: 'session',
  access: RULES.people,
  summary: 'One page of current members by email, after a keyset cursor (the last email of the previous page); never OFFSET.',
  input: MemberFilters.extend({
    after: z.string().max(320).nullable().optional(),
    page_size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  }),
  output: z.object({ results: z.array(Member), next_cursor: z.string().nullable() }),
});

export const membersCountEndpoint = defineEndpoint({
  name: 'membersCount',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/members/count/',
  auth: 'session',
  access: RULES.people,
  summary: 'How many current members match the filters (asked once per filter, not per page).',
  input: MemberFilters,
  output: z.object({ total: z.number().int() }),
});

const Emails = z
  .array(Email)
  .min(1, 'this field is required')
  .max(MAX_BULK_EMAILS, `At most ${MAX_BULK_EMAILS} emails at a time.`);

export const membersInviteEndpoint = defineEndpoint({
  name: 'membersInvite',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/members/invite/',
  auth: 'session',
  access: RULES.people,
  errors: ['member_already_exists', 'licence_limit_exceeded'],
  summary: 'Invite people by email (one, or many from a CSV file); each gets a licence and an invitation email.',
  input: z.object({ emails: Emails }),
  output: z.object({ invited: z.array(z.string()) }),
});

export const membersResendInviteEndpoint = defineEndpoint({
  name: 'membersResendInvite',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/members/invite/resend/',
  auth: 'session',
  access: RULES.people,
  errors: ['member_not_found'],
  summary: 'Send the invitation email again to members who have not joined yet.',
  input: z.object({ emails: Emails }),
  output: Done,
});

export const membersLicenceEndpoint = defineEndpoint({
  name: 'membersLicence',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/members/licence/update/',
  auth: 'session',
  access: RULES.people,
  errors: ['licence_limit_exceeded', 'member_not_found'],
  summary: 'Assign or revoke licences; assigning never goes above the licences available.',
  input: z.object({ emails: Emails, action: z.enum(['assign', 'revoke']) }),
  output: Done,
});

export const membersStatusEndpoint = defineEndpoint({
  name: 'membersStatus',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/members/status/update/',
  auth: 'session',
  access: RULES.people,
  errors: ['member_not_found'],
  summary: 'Suspend members (they cannot use the apps) or restore them.',
  input: z.object({ emails: Emails, action: z.enum(['suspend', 'restore']) }),
  output: Done,
});

export const membersRemoveEndpoint = defineEndpoint({
  name: 'membersRemove',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/members/remove/',
  auth: 'session',
  access: RULES.people,
  errors: ['member_not_found', 'approval_required'],
  summary: 'Remove members from the team (deboarded; their licences are freed).',
  input: z.object({ emails: Emails }),
  output: Done,
});

export const membersExportEndpoint = defineEndpoint({
  name: 'membersExport',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/members/export/',
  auth: 'session',
  access: RULES.people,
  errors: ['approval_required'],
  summary: 'Every current member matching the filters, as CSV text.',
  input: MemberFilters,
  output: z.object({ csv: z.string(), count: z.number().int() }),
});
