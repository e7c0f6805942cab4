import { z } from 'zod';
import { RULES } from './access.ts';
import { PageInfo, Paging } from './audit.ts';
import { Device, Email } from './auth.ts';
import { DEFAULT_PAGE_SIZE } from './constants.ts';
import { defineEndpoint } from './endpoint.ts';
import {
  MAX_RECOVERY_RECIPIENT_EMAILS,
  RECOVERY_ADMIN_STATES,
  RECOVERY_LINK_BOUNDS,
  RECOVERY_RECIPIENT_TYPES,
  RECOVERY_REQUEST_STATES,
} from './services-constants.ts';

const TeamSlug = z.string().max(100);
const OptionalDevice = Device.optional();

// ── Members' recovery requests (created by the apps; approved by a recovery admin) ──

export const RecoveryRequest = z.object({
  id: z.string(),
  email: z.string(),
  state: z.enum(RECOVERY_REQUEST_STATES),
  created_at: z.string(),
  approved_by: z.string().nullable(),
  link_expires_at: z.string().nullable(),
});
export type RecoveryRequest = z.infer<typeof RecoveryRequest>;

export const recoveryRequestsEndpoint = defineEndpoint({
  name: 'recoveryRequests',
  program: 'hub',
  method: 'POST',
  path: '/organization/recovery/admin/requests/fetch/',
  auth: 'hubAuth',
  access: RULES.recovery,
  errors: ['service_disabled'],
  summary: "Members' account recovery requests, newest first, filtered by state and searched by email.",
  input: z.object({
    team_slug: TeamSlug,
    ...Paging,
    state: z.enum(RECOVERY_REQUEST_STATES).optional(),
    search_value: z.string().trim().max(100).default(''),
  }),
  output: z.object({ results: z.array(RecoveryRequest), ...PageInfo }),
});

export const recoveryApproveEndpoint = defineEndpoint({
  name: 'recoveryApprove',
  program: 'hub',
  method: 'POST',
  path: '/organization/recovery/admin/request/',
  auth: 'hubAuth',
  access: RULES.recovery,
  errors: ['service_disabled'],
  summary:
    "Approve the pending recovery requests of these members: each gets a recovery link valid for the team's link expiration period.",
  input: z.object({
    team_slug: TeamSlug,
    device: OptionalDevice,
    emails: z.array(Email).min(1).max(100),
    state: z.literal('approved'),
  }),
  output: z.object({ approved: z.number().int() }),
});

export const recoveryDeleteEndpoint = defineEndpoint({
  name: 'recoveryDelete',
  program: 'hub',
  method: 'POST',
  path: '/organization/recovery/admin/request/delete/',
  auth: 'hubAuth',
  access: RULES.recovery,
  errors: ['service_disabled', 'recovery_in_progress'],
  summary: 'Delete a recovery request; one approved with a live link needs force_delete.',
  input: z.object({ team_slug: TeamSlug, id: z.uuid(), force_delete: z.boolean().default(false) }),
  output: z.object({ deleted: z.literal(true) }),
});

// ── Recovery admins (super admin; added by request, approved by the nominated member) ──

export const RecoveryAdmin = z.object({
  id: z.string(),
  email: z.string(),
  teamuser_id: z.string(),
  state: z.enum(RECOVERY_ADMIN_STATES),
  created_at: z.string(),
  accepted_at: z.string().nullable(),
});
export type RecoveryAdmin = z.infer<typeof RecoveryAdmin>;

export const recoveryAdminsEndpoint = defineEndpoint({
  name: 'recoveryAdmins',
  program: 'hub',
  method: 'POST',
  path: '/recovery/admins/fetch/',
  auth: 'hubAuth',
  access: RULES.recoveryAdmins,
  errors: ['service_disabled'],
  // Spec §7: /recovery/admins/fetch/?page&page_size.
  queryFields: ['page', 'page_size'],
  summary: 'Recovery admins, paged (page 1, size 10 by default) and filtered; fetch_all_admins returns every one on one page.',
  input: z.object({
    team_slug: TeamSlug,
    // From the query string they arrive as text.
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
    fetch_all_admins: z.boolean().default(false),
    search_email: z.string().trim().max(100).default(''),
    state: z.enum(RECOVERY_ADMIN_STATES).optional(),
  }),
  output: z.object({ results: z.array(RecoveryAdmin), ...PageInfo }),
});

/** Spec §3: a recovery admin request is user.email, state and id. */
export const RecoveryAdminRequest = z.object({
  id: z.string(),
  state: z.enum(RECOVERY_ADMIN_STATES),
  user: z.object({ email: z.string() }),
});

export const recoveryCreateAdminRequestEndpoint = defineEndpoint({
  name: 'recoveryCreateAdminRequest',
  program: 'hub',
  method: 'POST',
  path: '/recovery/create/admin/request/',
  auth: 'hubAuth',
  access: RULES.recoveryAdmins,
  errors: ['service_disabled', 'admin_already_exists', 'user_key_missing', 'recovery_role_required', 'server_unreachable'],
  summary:
    'Ask a member to become a recovery admin; the licence server must confirm they hold the Recovery admin role (recovery_agent), they need a device with a public key, and they approve from it.',
  input: z.object({ team_slug: TeamSlug, device: OptionalDevice, email: Email, teamuser_id: z.string().trim().min(1).max(100) }),
  output: z.object({ request: RecoveryAdminRequest }),
});

export const recoveryFetchAdminRequestsEndpoint = defineEndpoint({
  name: 'recoveryFetchAdminRequests',
  program: 'hub',
  method: 'POST',
  path: '/recovery/fetch/admin/request/',
  auth: 'hubAuth',
  access: RULES.recoveryAdmins,
  errors: ['service_disabled'],
  summary: 'Requests to become a recovery admin that the member has not approved yet.',
  input: z.object({ team_slug: TeamSlug }),
  output: z.object({ requests: z.array(RecoveryAdminRequest) }),
});

export const recoveryRemoveAdminEndpoint = defineEndpoint({
  name: 'recoveryRemoveAdmin',
  program: 'hub',
  method: 'POST',
  path: '/group/member/remove/',
  auth: 'hubAuth',
  access: RULES.recoveryAdmins,
  errors: ['service_disabled', 'not_found'],
  summary: 'Remove a recovery admin (or withdraw a pending request) from the recovery group.',
  input: z.object({ team_slug: TeamSlug, device: OptionalDevice, email: Email, uid: z.uuid() }),
  output: z.object({ removed: z.literal(true) }),
});

export const userKeyVerifyEndpoint = defineEndpoint({
  name: 'userKeyVerify',
  program: 'hub',
  method: 'POST',
  path: '/user/key/verify/',
  auth: 'hubAuth',
  access: RULES.recoveryAdmins,
  errors: ['service_disabled'],
  summary: 'Whether each member has a registered device with a public key (needed to become a recovery admin).',
  input: z.object({ team_slug: TeamSlug, emails: z.array(Email).min(1).max(100) }),
  output: z.object({ results: z.array(z.object({ email: z.string(), verified: z.boolean() })) }),
});

export const memberSecretVerifyEndpoint = defineEndpoint({
  name: 'memberSecretVerify',
  program: 'hub',
  method: 'POST',
  path: '/group/member/secret/verify/',
  auth: 'hubAuth',
  access: RULES.recoveryAdmins,
  errors: ['service_disabled'],
  summary: 'Whether a recovery admin holds the recovery group secret: approved, with a device key that is still registered.',
  input: z.object({ team_slug: TeamSlug, email: Email, uid: z.uuid() }),
  output: z.object({ verified: z.boolean() }),
});

// ── Recovery settings ──

export const RecoverySettings = z.object({
  link_expiration_period: z.number().int(),
  recovery_notification_recipient_type: z.enum(RECOVERY_RECIPIENT_TYPES),
  recovery_notification_recipient_emails: z.array(z.string()),
});
export type RecoverySettings = z.infer<typeof RecoverySettings>;

export const recoverySettingsEndpoint = defineEndpoint({
  name: 'recoverySettings',
  program: 'hub',
  method: 'POST',
  path: '/recovery/settings/',
  auth: 'hubAuth',
  access: RULES.recoveryAdmins,
  errors: ['service_disabled'],
  summary: "The team's recovery settings: link expiration period (minutes) and notification recipients.",
  input: z.object({ team_slug: TeamSlug }),
  output: RecoverySettings,
});

export const recoveryLinkExpirationEndpoint = defineEndpoint({
  name: 'recoveryLinkExpiration',
  program: 'hub',
  method: 'POST',
  path: '/recovery/link/expiration/period/update/',
  auth: 'hubAuth',
  access: RULES.recoveryAdmins,
  errors: ['service_disabled'],
  summary: 'Set how many minutes a recovery link stays valid (default 120).',
  input: z.object({
    team_slug: TeamSlug,
    device: OptionalDevice,
    link_expiration_period: z.number().int().min(RECOVERY_LINK_BOUNDS.min).max(RECOVERY_LINK_BOUNDS.max),
  }),
  output: RecoverySettings,
});

export const recoveryNotificationEndpoint = defineEndpoint({
  name: 'recoveryNotification',
  program: 'hub',
  method: 'POST',
  path: '/recovery/notification/recipient/type/update/',
  auth: 'hubAuth',
  access: RULES.recoveryAdmins,
  errors: ['service_disabled'],
  summary: 'Choose who hears of new recovery requests; custom needs at least one email.',
  input: z
    .object({
      team_slug: TeamSlug,
      device: OptionalDevice,
      recovery_notification_recipient_type: z.enum(RECOVERY_RECIPIENT_TYPES),
      recovery_notification_recipient_emails: z
        .array(Email)
        .max(MAX_RECOVERY_RECIPIENT_EMAILS)
        .default([])
        .transform((e) => [...new Set(e.map((x) => x.toLowerCase()))]),
    })
    .refine((v) => v.recovery_notification_recipient_type !== 'custom' || v.recovery_notification_recipient_emails.length > 0, {
      message: 'Add at least one email.',
      path: ['recovery_notification_recipient_emails'],
    }),
  output: RecoverySettings,
});

// ── The recovery service switch (licence server) ──

export const recoveryServiceUpdateEndpoint = defineEndpoint({
  name: 'recoveryServiceUpdate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/policy/team/recovery/service/update/',
  auth: 'session',
  access: RULES.superAdminAnyTeam,
  errors: ['aux_server_not_connected'],
  summary: "Switch the team's recovery service on or off at its connected Hub.",
  input: z.object({ enable_recovery: z.boolean() }),
  output: z.object({ code: z.literal('recovery_service_updated'), enable_recovery: z.boolean() }),
});
