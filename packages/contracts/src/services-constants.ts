/**
 * Constants of the security audit, sharing and recovery services (spec §3, §9), zod-free so the
 * console's screens can use them without loading the schemas.
 */

/** Columns the vault health table sorts by (spec §3 Audit ordering: desc, field_id). */
export const AUDIT_FIELDS = ['email', 'score', 'weak', 'reused', 'old', 'compromised', 'total_items', 'updated_at'] as const;
export type AuditField = (typeof AUDIT_FIELDS)[number];

/**
 * What the apps count as old and weak, and what the console flags as at risk, for a team with no
 * password policy of its own. A team's policy replaces the password rules (its mp.* entries).
 */
export const AUDIT_POLICY_DEFAULTS = {
  old_password_days: 365,
  at_risk_below_score: 60,
  weak_below_length: 12,
  require_uppercase: false,
  require_lowercase: false,
  require_digits: false,
  require_symbols: false,
  flag_breached: true,
} as const;

/** Sharing limits a team starts with, and the bounds an admin may set them within. */
export const SHARING_DEFAULTS = { max_expiry_hours: 168, max_views: 10 } as const;
export const SHARING_BOUNDS = { max_expiry_hours: { min: 1, max: 720 }, max_views: { min: 1, max: 1000 } } as const;

/** Spec §9: the recovery link lasts 120 minutes unless changed; the unit is minutes. */
export const RECOVERY_LINK_DEFAULT_MINUTES = 120;
export const RECOVERY_LINK_BOUNDS = { min: 5, max: 10080 } as const;

/** Who hears about a new recovery request. */
export const RECOVERY_RECIPIENT_TYPES = ['recovery_admins', 'super_admins', 'custom'] as const;
export type RecoveryRecipientType = (typeof RECOVERY_RECIPIENT_TYPES)[number];
export const MAX_RECOVERY_RECIPIENT_EMAILS = 20;

export const RECOVERY_REQUEST_STATES = ['pending', 'approved'] as const;
export type RecoveryRequestState = (typeof RECOVERY_REQUEST_STATES)[number];
export const RECOVERY_ADMIN_STATES = ['pending', 'active'] as const;
export type RecoveryAdminState = (typeof RECOVERY_ADMIN_STATES)[number];
