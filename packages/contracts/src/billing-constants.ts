/** The zod-free constants of billing (spec §3 Subscription and Plan, §4, §5, §9), for the console's client entry. */
import { MAX_LICENCES } from './constants.ts';

/** Spec §9 plan order: starter, standard, enterprise. */
export const PLAN_TYPES = ['starter', 'standard', 'enterprise'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];
/** Spec §3 billFrequency: '1' (monthly) then '12' (yearly). */
export const BILL_FREQUENCIES = ['1', '12'] as const;
export type BillFrequency = (typeof BILL_FREQUENCIES)[number];

/** Bill states seen (spec §3, §4): billed, pending (grace period), expired, refunded, trial. */
export const BILL_STATES = ['billed', 'pending', 'expired', 'refunded', 'trial'] as const;
export type BillState = (typeof BILL_STATES)[number];
export const BILL_STATE_DISPLAYS = ['active', 'grace', 'ended', 'trial'] as const;
/** How the console shows a bill state (spec §4 Subscription display). */
export const BILL_STATE_DISPLAY = {
  billed: 'active',
  pending: 'grace',
  expired: 'ended',
  refunded: 'ended',
  trial: 'trial',
} as const satisfies Record<BillState, (typeof BILL_STATE_DISPLAYS)[number]>;
export type BillStateDisplay = (typeof BILL_STATE_DISPLAYS)[number];

/** Who sells the team its subscription (spec §3 purchase_partner); reseller and benefit teams are managed elsewhere. */
export const PURCHASE_PARTNERS = ['b2b_benefit', 'fastspring', 'reseller'] as const;
export type PurchasePartner = (typeof PURCHASE_PARTNERS)[number];
export const MANAGED_PARTNERS: readonly PurchasePartner[] = ['b2b_benefit', 'reseller'];
/** manual: invoices paid by transfer and marked paid; automatic: charged by the purchase partner. */
export const BILL_TYPES = ['manual', 'automatic'] as const;
export type BillType = (typeof BILL_TYPES)[number];

export const INVOICE_STATES = ['open', 'paid', 'void'] as const;
/**
 * Who records a manual invoice as paid (the server's INVOICE_PAID_BY): the team's super admin in the
 * console (self-hosted: they are the operator who receives the transfer), or the operator alone.
 */
export const INVOICE_PAYERS = ['super_admin', 'operator'] as const;
export type InvoicePayer = (typeof INVOICE_PAYERS)[number];
export type InvoiceState = (typeof INVOICE_STATES)[number];

/** Days an overdue invoice leaves the team in its grace period before the subscription expires. */
export const GRACE_DAYS = 14;
/** A renewal invoice is issued this many days before the renewal date. */
export const RENEWAL_NOTICE_DAYS = 14;
export const INVOICES_PAGE_SIZE = 10;

/** A plan's SKU: `standard-1` is standard monthly, `standard-12` standard yearly. */
export const planSku = (plan: PlanType, frequency: BillFrequency): string => `${plan}-${frequency}`;
export function parseSku(sku: string): { plan: PlanType; frequency: BillFrequency } | null {
  const [plan, frequency] = sku.split('-');
  if (!PLAN_TYPES.includes(plan as PlanType) || !BILL_FREQUENCIES.includes(frequency as BillFrequency)) return null;
  return { plan: plan as PlanType, frequency: frequency as BillFrequency };
}
/** Spec §4: a monthly SKU's yearly counterpart (the "saving plan"); null for a yearly one. */
export const savingPlanOf = (sku: string): string | null => {
  const parsed = parseSku(sku);
  return parsed && parsed.frequency === '1' ? planSku(parsed.plan, '12') : null;
};
/** Spec §9: yearly saving = 12 × monthly price − yearly price. */
export const yearlySaving = (monthly: number, yearly: number): number => Math.round((12 * monthly - yearly) * 100) / 100;

/** Spec §5: the most licences one addition may take; 0 when none may be added (or unlimited). */
export const maxLicencesToAdd = (total: number): number => (total < 0 ? 0 : Math.max(0, MAX_LICENCES - total));

/** The payment provider's notifications the server acts on. */
export const FASTSPRING_EVENT_TYPES = [
  'subscription.activated',
  'subscription.charge.completed',
  'subscription.deactivated',
  'subscription.payment.overdue',
] as const;
