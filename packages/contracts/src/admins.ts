import { z } from 'zod';
import { RULES, SCOPES } from './access.ts';
import { Email } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';

/** Spec §9: the team admin count shown rounded up to a multiple of 10. */
export const roundUpToTen = (n: number): number => Math.ceil(n / 10) * 10;

const Scopes = z
  .array(z.enum(SCOPES))
  .min(1, 'Choose at least one scope.')
  .transform((s) => [...new Set(s)]);

/** `pending`: invited (the person already had an account) and not yet accepted. */
export const TeamAdmin = z.object({
  email: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  status: z.enum(['active', 'pending']),
});
export type TeamAdmin = z.infer<typeof TeamAdmin>;

export const adminMembersEndpoint = defineEndpoint({
  name: 'adminMembers',
  program: 'server',
  method: 'POST',
  path: '/api/v1/team/admin/members/',
  auth: 'session',
  access: RULES.superAdmin,
  summary: "The team's administrators (optionally those matching a search), with the count rounded up to a multiple of 10.",
  input: z.object({ search_value: z.string().trim().max(100).optional() }),
  output: z.object({ admins: z.array(TeamAdmin), total: z.number().int(), total_rounded: z.number().int() }),
});

export const adminAddEndpoint = defineEndpoint({
  name: 'adminAdd',
  program: 'server',
  method: 'POST',
  path: '/organization/admin/user/add/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['admin_already_exists', 'approval_required'],
  summary:
    'Make a new person an administrator of the team (updated), or invite a person who already has an account (invited): they administer the team once they accept the link mailed to them.',
  input: z.object({ action: z.literal('add_admin').default('add_admin'), email: Email, scopes: Scopes }),
  output: z.object({ code: z.enum(['updated', 'invited']) }),
});

export const adminRemoveEndpoint = defineEndpoint({
  name: 'adminRemove',
  program: 'server',
  method: 'POST',
  path: '/organization/admin/user/remove/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['admin_not_in_team', 'last_super_admin', 'approval_required'],
  summary: 'Remove an administrator from the team, or cancel their pending invitation; the last super admin cannot be removed.',
  input: z.object({ action: z.literal('remove_admin'), email: Email, scopes: z.array(z.enum(SCOPES)).optional() }),
  output: z.object({ code: z.literal('updated') }),
});

export const adminAuthResetEndpoint = defineEndpoint({
  name: 'adminAuthReset',
  program: 'server',
  method: 'POST',
  path: '/organization/admin/auth/reset/',
  auth: 'session',
  access: RULES.superAdmin,
  errors: ['admin_in_other_team', 'admin_not_in_team', 'approval_required'],
  summary:
    "Reset another administrator's sign-in: password, authenticator and backup codes cleared, sessions ended. Refused (admin_in_other_team) for someone who also administers another team.",
  input: z.object({ email: Email, reset_auth: z.literal(true) }),
  output: z.object({ code: z.literal('updated') }),
});

const InvitationToken = z.string().min(16, 'invalid or expired link').max(200, 'invalid or expired link');

export const adminInvitationEndpoint = defineEndpoint({
  name: 'adminInvitation',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/admin/invitation/',
  auth: 'public',
  errors: ['invalid_link'],
  summary: 'Whose administrator invitation a mailed link is, without accepting it (invalid_link when used or expired).',
  input: z.object({ token: InvitationToken }),
  output: z.object({ email: z.string(), team_slug: z.string(), team_name: z.string(), scopes: z.array(z.enum(SCOPES)) }),
});

export const adminInvitationAcceptEndpoint = defineEndpoint({
  name: 'adminInvitationAccept',
  program: 'server',
  method: 'POST',
  path: '/api/v1/console/auth/admin/invitation/accept/',
  auth: 'public',
  errors: ['invalid_link'],
  summary: 'Accept an administrator invitation with the single-use link mailed to the person; then they sign in as usual.',
  input: z.object({ token: InvitationToken }),
  output: z.object({ code: z.literal('accepted'), email: z.string(), team_slug: z.string(), team_name: z.string() }),
});
