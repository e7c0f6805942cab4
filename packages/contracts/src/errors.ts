import { z } from 'zod';

/** Every error reply, from server and hub alike: a stable code and an English description. */
export const ErrorReply = z.object({
  code: z.string(),
  description: z.string(),
  /** Field-level problems of an `invalid_input` reply. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** The console's i18n key for this failure and the values it names, when the code alone is too coarse. */
  message_key: z.string().optional(),
  message_values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** The approval request an `approval_required` answer (202) made. */
  request_id: z.string().optional(),
});
export type ErrorReply = z.infer<typeof ErrorReply>;

/** Error codes the programs send, with their HTTP status. */
export const ERROR_STATUS = {
  invalid_input: 400,
  email_notregistered: 404,
  admin_not_found: 404,
  password_invalid: 400,
  otp_invalid: 400,
  totp_invalid: 400,
  code_invalid: 400,
  password_mismatch: 400,
  invalid_password_validation: 400,
  totp_already_enabled: 409,
  totp_not_enabled: 409,
  password_not_set: 409,
  invalid_link: 400,
  token_expired: 401,
  invalid_grant: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  too_many_requests_msg: 429,
  hub_not_registered: 403,
  // Hub integration: toggle-service codes (spec §8) and Hub-side refusals.
  auth_not_set: 409,
  not_allowed: 409,
  aux_server_not_connected: 502,
  failed: 502,
  setup_key_invalid: 401,
  registration_closed: 409,
  server_unreachable: 503,
  recovery_role_required: 409,
  service_disabled: 409,
  licence_limit_exceeded: 400,
  member_already_exists: 409,
  member_not_found: 404,
  group_not_found: 404,
  group_already_exists: 409,
  admin_already_exists: 409,
  admin_not_in_team: 404,
  last_super_admin: 400,
  // Just-in-time admin rights.
  elevation_off: 409,
  not_eligible: 403,
  elevation_exists: 409,
  elevation_not_found: 404,
  conflict: 409,
  admin_in_other_team: 409,
  // Sign-in by security key and SSO, branding, and the Hub's sharing and recovery.
  u2f_invalid: 400,
  sso_enforced: 400,
  sso_not_found: 404,
  saml_client_generation_failed: 400,
  invalid_image: 400,
  sharing_limit_exceeded: 400,
  share_unavailable: 410,
  user_key_missing: 400,
  recovery_in_progress: 409,
  // Billing and licences
  billing_managed: 409,
  licence_cap_exceeded: 400,
  licence_removal_below_in_use: 400,
  licences_unlimited: 409,
  subscription_ended: 409,
  plan_unchanged: 400,
  invoice_not_found: 404,
  invoice_not_open: 409,
  signature_invalid: 401,
  // Onboarding (spec §8)
  url_fetch_failed: 502,
  app_addition_not_verified: 409,
  cloud_not_connected: 409,
  // Event logs and SIEM export: the SIEM destination did not take a test event.
  url_not_accessible: 400,
  // SAML single sign-on
  sso_metadata_invalid: 400,
  sso_not_tested: 409,
  sso_config_already_tested: 409,
  sso_break_glass: 409,
  // Four-eyes approvals: approval_required is not a failure but a 202, nothing changed yet.
  approval_required: 202,
  approval_not_found: 404,
  approval_closed: 409,
  approval_own_request: 403,
  approval_already_decided: 409,
  approval_scope_missing: 403,
  /** A Hub call the team's approval policy may cover, while the licence server cannot say whether it does. */
  approval_check_unavailable: 503,
  // Directory sync
  directory_change_refused: 409,
  directory_unreadable: 400,
  directory_changed: 409,
  directory_preview_first: 409,
  // Event log saved searches
  saved_search_limit_exceeded: 409,
  // Alert rules: e-mail goes only to the team's administrators (the licence server's list)
  alert_recipient_not_admin: 400,
  /** The licence server cannot say now who the team's administrators are: nothing is saved. */
  alert_recipients_unverifiable: 503,
  /** The Hub's registration has no licence server address: no administrators' list to check e-mail against. */
  alert_email_needs_server: 409,
  internal_error: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Client-side failure classes (spec §8). */
export const FAILURE_CLASSES = ['TIMEOUT_ERROR', 'FETCH_ERROR', 'PARSING_ERROR'] as const;
