import type { ComponentSpec } from './types.ts';

/** Sign-ins, sessions and an admin's own credentials (the server's security history), and the Hub's session ends. */
export const AUTH_ACTIVITIES = {
  sources: ['server', 'hub'],
  activities: {
    'auth.sign_in': { severity: 'info', fields: ['method'] },
    'auth.sign_in_failed': { severity: 'warning', fields: ['reason'] },
    'auth.sign_out': { severity: 'info' },
    'auth.team_switch': { severity: 'info', fields: ['from_team', 'to_team'] },
    'auth.session_revoked': { severity: 'notice', fields: ['reason'] },
    'auth.password_set': { severity: 'notice' },
    'auth.password_changed': { severity: 'notice' },
    'auth.password_reset_requested': { severity: 'info' },
    'auth.password_reset': { severity: 'notice' },
    'auth.password_reset_refused': { severity: 'warning', fields: ['reason'] },
    'auth.account_check_failed': { severity: 'warning', fields: ['reason'] },
    'auth.auth_type_changed': { severity: 'notice', fields: ['from', 'to'] },
    'auth.totp_enabled': { severity: 'notice' },
    'auth.totp_changed': { severity: 'notice' },
    'auth.security_key_added': { severity: 'notice' },
    'auth.security_key_renamed': { severity: 'info', fields: ['id'] },
    'auth.security_key_removed': { severity: 'notice', fields: ['id'] },
    'auth.recovery_codes_regenerated': { severity: 'notice' },
  },
} as const satisfies ComponentSpec;

const ELEVATION = ['request_id', 'elevation_id', 'scope'] as const;

/** The team's administrators: added, invited, removed, and their time-bound elevations. */
export const ADMIN_ACTIVITIES = {
  sources: ['server'],
  activities: {
    'admin.added': { severity: 'warning', fields: ['scopes', 'by'] },
    'admin.invited': { severity: 'notice', fields: ['scopes'] },
    'admin.invitation_accepted': { severity: 'notice', fields: ['scopes'] },
    'admin.invitation_cancelled': { severity: 'info' },
    'admin.removed': { severity: 'warning', fields: ['scopes'] },
    'admin.auth_reset': { severity: 'warning' },
    'admin.eligibility_changed': { severity: 'warning', fields: ['scopes', 'eligible_scopes'] },
    'admin.elevation_requested': { severity: 'notice', fields: [...ELEVATION, 'minutes'] },
    'admin.elevation_approved': { severity: 'warning', fields: [...ELEVATION, 'minutes'] },
    'admin.elevation_self': { severity: 'warning', fields: ['elevation_id', 'scope', 'minutes', 'reason'] },
    'admin.elevation_rejected': { severity: 'info', fields: ELEVATION },
    'admin.elevation_withdrawn': { severity: 'info', fields: ELEVATION },
    'admin.elevation_expired': { severity: 'info', fields: ELEVATION },
    'admin.elevation_dropped': { severity: 'info', fields: ELEVATION },
    'admin.elevation_break_glass': { severity: 'critical', fields: ['elevation_id', 'scope', 'minutes'] },
    'admin.elevation_settings_changed': { severity: 'warning', fields: ['enabled', 'ended'] },
  },
} as const satisfies ComponentSpec;

/** Multi-admin approval requests and the policy that asks for them (docs/approvals.md). */
export const APPROVAL_ACTIVITIES = {
  sources: ['server'],
  activities: {
    'approval.requested': { severity: 'notice', fields: ['request_id', 'action'] },
    'approval.approved': { severity: 'notice', fields: ['request_id', 'action'] },
    'approval.rejected': { severity: 'notice', fields: ['request_id', 'action'] },
    'approval.expired': { severity: 'info', fields: ['request_id', 'action'] },
    'approval.withdrawn': { severity: 'info', fields: ['request_id', 'action'] },
    'approval.applied': { severity: 'notice', fields: ['request_id', 'action'] },
    'approval.apply_failed': { severity: 'warning', fields: ['request_id', 'action'] },
    'approval.operator_approved': { severity: 'critical', fields: ['request_id', 'action'] },
    'approval.operator_cleared': { severity: 'warning', fields: ['request_id', 'action'] },
    'approval.policy_changed': { severity: 'warning', fields: ['request_id', 'action'] },
  },
} as const satisfies ComponentSpec;

/** Team and group policies, changed or restored from their history. */
export const POLICY_ACTIVITIES = {
  sources: ['server'],
  activities: {
    'policy.team_updated': { severity: 'warning', fields: ['history_id'] },
    'policy.team_restored': { severity: 'warning', fields: ['history_id', 'restored_from'] },
    'policy.group_updated': { severity: 'notice', fields: ['history_id'] },
    'policy.group_restored': { severity: 'notice', fields: ['history_id', 'restored_from'] },
    // Besides the change's own event when it relaxes a rule for someone: what an alert rule can match.
    'policy.relaxed': { severity: 'warning', fields: ['history_id', 'scope', 'keys'] },
  },
} as const satisfies ComponentSpec;

/** SCIM connectors and their tokens (what a connector changes is logged under members and groups). */
export const SCIM_ACTIVITIES = {
  sources: ['server'],
  activities: {
    'scim.connector_created': { severity: 'notice', fields: ['connector', 'name', 'idp'] },
    'scim.token_rotated': { severity: 'warning', fields: ['connector', 'name', 'idp'] },
    'scim.connector_revoked': { severity: 'warning', fields: ['connector', 'name', 'idp'] },
  },
} as const satisfies ComponentSpec;

/** Single sign-on's team-wide switch ("Require SSO"). */
export const SSO_ACTIVITIES = {
  sources: ['server'],
  activities: {
    'sso.require_sso_enabled': { severity: 'notice' },
    'sso.require_sso_disabled': { severity: 'critical' },
  },
} as const satisfies ComponentSpec;
