import { type BillFrequency, type Invoice, type InvoicePayer, MANAGED_PARTNERS, type PlanType } from '@latchkey/contracts';
import { AppError, type Db, type Queryable } from '@latchkey/runtime';
import { billingRepository as repo, type SubscriptionRow } from './billing.repository.ts';
import { invoiceNumber } from './invoice-pdf.ts';
import type { InvoiceRow } from './invoices.repository.ts';
import { PLAN_PRICE_CENTS, todayUtc, toMoney } from './proration.ts';

/** What the billing service is built with (the server's configuration). */
export interface BillingDeps {
  /** The FastSpring webhook secret; without it every webhook call is refused. */
  fastSpringSecret?: string | undefined;
  /** Who may mark a manual invoice paid in the console (INVOICE_PAID_BY); the operator's CLI always may. */
  invoicePaidBy?: InvoicePayer;
  /** The day it is (UTC); tests move it. */
  today?: () => string;
}

/** What every billing command is handed: the database and the resolved configuration. */
export interface BillingContext {
  db: Db;
  fastSpringSecret: string | undefined;
  invoicePaidBy: InvoicePayer;
  today: () => string;
}

export const billingContext = (db: Db, deps: BillingDeps = {}): BillingContext => ({
  db,
  fastSpringSecret: deps.fastSpringSecret,
  invoicePaidBy: deps.invoicePaidBy ?? 'super_admin',
  today: deps.today ?? (() => todayUtc()),
});

export const isManaged = (s: SubscriptionRow) => s.purchase_partner !== null && MANAGED_PARTNERS.includes(s.purchase_partner);

export const toInvoice = (r: InvoiceRow): Invoice => ({
  id: r.id,
  number: invoiceNumber(r.number),
  kind: r.kind,
  state: r.state,
  provider: r.provider,
  currency: r.currency,
  total: toMoney(r.total_cents),
  description: r.lines[0]?.description ?? '',
  detail: r.lines[0]?.detail ?? null,
  issued_at: new Date(r.issued_at).toISOString(),
  due_date: r.due_date,
  paid_at: r.paid_at ? new Date(r.paid_at).toISOString() : null,
});

export const planName = (plan: PlanType, frequency: BillFrequency) =>
  `${plan[0]?.toUpperCase()}${plan.slice(1)} ${frequency === '1' ? 'monthly' : 'yearly'}`;

export const planUnit = (plan: PlanType, frequency: BillFrequency) => PLAN_PRICE_CENTS[plan][frequency];

/** The team's subscription (made on first use), optionally locked for the caller's transaction. */
export async function loadSubscription(q: Queryable, teamId: string, lock = false): Promise<SubscriptionRow> {
  await repo.ensure(q, teamId);
  const row = await repo.find(q, teamId, lock);
  if (!row) throw new AppError('not_found', 'No such team.', 404);
  return row;
}

/** Refuses a purchase on a subscription a reseller or benefit provider manages. */
export function assertPurchasable(s: SubscriptionRow): void {
  if (isManaged(s)) {
    throw new AppError(
      'billing_managed',
      `This subscription is managed by your ${s.purchase_partner === 'reseller' ? 'reseller' : 'benefit provider'}.`,
    ).shows('billing.errors.managed');
  }
}

export const billTo = (s: SubscriptionRow) => ({
  team_name: s.team_name,
  team_slug: s.team_slug,
  billing_email: s.billing_email,
});

/** The licences a plan is priced for: those bought, or those in use when unlimited (at least one). */
export const pricedLicences = async (q: Queryable, s: SubscriptionRow) =>
  s.total_licences >= 0 ? Math.max(1, s.total_licences) : Math.max(1, await repo.usedLicences(q, s.team_id));
