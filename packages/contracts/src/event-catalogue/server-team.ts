import { FASTSPRING_EVENT_TYPES } from '../billing.ts';
import { WIZARD_ACTIONS } from '../onboarding-constants.ts';
import type { ActivitySpec, ComponentSpec } from './types.ts';

/** Members and their licences, by an admin, a SCIM connector or the directory sync. */
export const MEMBER_ACTIVITIES = {
  sources: ['server'],
  activities: {
    'member.invited': { severity: 'info' },
    'member.invitation_resent': { severity: 'info' },
    'member.updated': { severity: 'info', fields: ['from'] },
    'member.suspended': { severity: 'notice' },
    'member.restored': { severity: 'notice' },
    'member.removed': { severity: 'notice' },
    'members.exported': { severity: 'notice', fields: ['count'] },
    'licence.assigned': { severity: 'info' },
    'licence.revoked': { severity: 'info' },
  },
} as const satisfies ComponentSpec;

/** Groups and their members. */
export const GROUP_ACTIVITIES = {
  sources: ['server'],
  activities: {
    'group.created': { severity: 'info', fields: ['members'] },
    'group.renamed': { severity: 'info', fields: ['from'] },
    'group.priority_updated': { severity: 'info', fields: ['priority_level'] },
    'group.members_added': { severity: 'info', fields: ['count'] },
    'group.members_removed': { severity: 'info', fields: ['count'] },
    'groups.removed': { severity: 'notice', fields: ['count'] },
  },
} as const satisfies ComponentSpec;

export const BRANDING_ACTIVITIES = {
  sources: ['server'],
  activities: {
    'logo.updated': { severity: 'info' },
    'logo.removed': { severity: 'info' },
  },
} as const satisfies ComponentSpec;

export const FAMILY_ACTIVITIES = {
  sources: ['server'],
  activities: {
    'family.benefit_granted': { severity: 'info' },
    'family.benefit_removed': { severity: 'info' },
  },
} as const satisfies ComponentSpec;

type FastSpringCode = `billing.fastspring_${(typeof FASTSPRING_EVENT_TYPES)[number] extends `${infer A}.${infer B}`
  ? B extends `${infer C}.${infer D}`
    ? `${A}_${C}_${D}`
    : `${A}_${B}`
  : never}`;

/** The payment provider's notifications, one activity each (`subscription.charge.completed` → `billing.fastspring_subscription_charge_completed`). */
const FASTSPRING = Object.fromEntries(
  FASTSPRING_EVENT_TYPES.map((t) => [`billing.fastspring_${t.replaceAll('.', '_')}`, { severity: 'notice' }]),
) as Record<FastSpringCode, ActivitySpec>;

/** The subscription: plan, licences, invoices, renewals, and the payment provider's notifications. */
export const BILLING_ACTIVITIES = {
  sources: ['server'],
  activities: {
    'billing.plan_changed': { severity: 'notice', fields: ['from', 'to', 'amount_due'] },
    'billing.plan_change_ordered': { severity: 'notice', fields: ['plan'] },
    'billing.licenses_ordered': { severity: 'notice', fields: ['quantity', 'total'] },
    'billing.licenses_removed': { severity: 'notice', fields: ['quantity', 'total'] },
    'billing.invoice_paid': { severity: 'info', fields: ['invoice'] },
    'billing.renewal_invoiced': { severity: 'info', fields: ['invoice'] },
    'billing.state_changed': { severity: 'warning', fields: ['from', 'to'] },
    'billing.email_changed': { severity: 'notice', fields: ['from', 'to'] },
    'billing.autorenew_changed': { severity: 'notice', fields: ['autorenew'] },
    'billing.licences_nearly_used': { severity: 'warning', fields: ['used', 'total'] },
    ...FASTSPRING,
  },
} as const satisfies ComponentSpec;

/** The Hub's credentials and services, set up from the console. */
export const INTEGRATION_ACTIVITIES = {
  sources: ['server'],
  activities: {
    'integration.credential_added': { severity: 'notice' },
    'integration.credential_renamed': { severity: 'info' },
    'integration.credential_deleted': { severity: 'warning' },
    'integration.hub_set_up': { severity: 'notice', fields: ['credential_id'] },
    'integration.services_enabled': { severity: 'notice' },
    'integration.services_disabled': { severity: 'warning' },
  },
} as const satisfies ComponentSpec;

type WizardCode = `onboarding.${(typeof WIZARD_ACTIONS)[number]}`;

/** A step of the onboarding wizard, one activity per button. */
export const ONBOARDING_ACTIVITIES = {
  sources: ['server'],
  activities: Object.fromEntries(WIZARD_ACTIONS.map((a) => [`onboarding.${a}`, { severity: 'info' }])) as Record<
    WizardCode,
    ActivitySpec
  >,
} as const satisfies ComponentSpec;
