/**
 * The built-in alert rules a super admin switches on in one click: each a search (the activity
 * codes the server and the Hub write, each declared in the activity catalogue) and a condition.
 */
export interface AlertTemplate {
  key: string;
  /** The event-log filters (alerts.ts reads them as `EventFilters`). */
  filters: { activities: string[]; search_value?: string };
  condition:
    | { kind: 'every' }
    | { kind: 'threshold'; count: number; minutes: number; group_by: 'actor' | 'ip' | 'target' | null };
  cooldown_minutes: number;
}

export const ALERT_TEMPLATES = [
  {
    // The server's sign-in writes auth.sign_in_failed with the address it came from.
    key: 'failed_sign_ins',
    filters: { activities: ['auth.sign_in_failed'] },
    condition: { kind: 'threshold', count: 5, minutes: 10, group_by: 'ip' },
    cooldown_minutes: 30,
  },
  {
    // admin_added, and the just-in-time elevations that grant a scope (super admin among them).
    key: 'admin_added',
    filters: { activities: ['admin.added', 'admin.elevation_approved', 'admin.elevation_self', 'admin.elevation_break_glass'] },
    condition: { kind: 'every' },
    cooldown_minutes: 0,
  },
  {
    // A change that relaxes a rule for someone (as the approvals gate tells it) writes policy.relaxed beside its own event.
    key: 'policy_relaxed',
    filters: { activities: ['policy.relaxed'] },
    condition: { kind: 'every' },
    cooldown_minutes: 0,
  },
  {
    key: 'require_sso_off',
    filters: { activities: ['sso.require_sso_disabled'] },
    condition: { kind: 'every' },
    cooldown_minutes: 0,
  },
  {
    key: 'scim_token',
    filters: { activities: ['scim.token_rotated', 'scim.connector_revoked'] },
    condition: { kind: 'every' },
    cooldown_minutes: 0,
  },
  {
    key: 'siem_failing',
    filters: { activities: ['siem.delivery_failing'] },
    condition: { kind: 'every' },
    cooldown_minutes: 60,
  },
  {
    key: 'chain_verification_failed',
    filters: { activities: ['event_logs.verification_failed'] },
    condition: { kind: 'every' },
    cooldown_minutes: 60,
  },
  {
    key: 'licences_nearly_used',
    filters: { activities: ['billing.licences_nearly_used'] },
    condition: { kind: 'every' },
    cooldown_minutes: 1440,
  },
] as const satisfies readonly AlertTemplate[];

export type AlertTemplateKey = (typeof ALERT_TEMPLATES)[number]['key'];
export const ALERT_TEMPLATE_KEYS = ALERT_TEMPLATES.map((t) => t.key) as [AlertTemplateKey, ...AlertTemplateKey[]];
