/** Logout reasons (spec §4) and how the login page shows them. */
export const LOGOUT_REASONS = [
  'session_expired',
  'manual_logout',
  'team_switch',
  'app_initiated_login_failed',
  'integration_successful',
  'hub_unreachable',
  'unknown_error',
] as const;
export type LogoutReason = (typeof LOGOUT_REASONS)[number];
