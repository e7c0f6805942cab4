import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  BILL_FREQUENCIES,
  BILL_STATE_DISPLAY,
  type BillFrequency,
  GRACE_DAYS,
  type Invoice,
  type InvoicePayer,
  MANAGED_PARTNERS,
  MAX_LICENCES,
  PLAN_TYPES,
  type Plan,
  type PlanType,
  parseSku,
  planSku,
  RENEWAL_NOTICE_DAYS,
  type Subscription,
  savingPlanOf,
  yearlySaving,
} from '@latchkey/contracts';
import { AppError, type Db, forbidden, type Queryable } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { type InvoiceChange, type InvoiceRow, billingRepository as repo, type SubscriptionRow } from './billing.repository.ts';
import { invoiceNumber, renderInvoicePdf } from './invoice-pdf.ts';
import { providerFor } from './payment-providers.ts';
import { addDays, addMonths, PLAN_PRICE_CENTS, quoteLicences, quotePlanChange, todayUtc, toMoney } from './proration.ts';

export interface BillingDeps {
  /** The FastSpring webhook secret; without it every webhook call is refused. */
  fastSpringSecret?: string | undefined;
  /** Who may mark a manual invoice paid in the console (INVOICE_PAID_BY); the operator's CLI always may. */
  invoicePaidBy?: InvoicePayer;
  /** The day it is (UTC); tests move it. */
  today?: () => string;
}

const isManaged = (s: SubscriptionRow) => s.purchase_partner !== null && MANAGED_PARTNERS.includes(s.purchase_partner);

export const toInvoice = (r: InvoiceRow): Invoice => ({
  id: r.id,
  number: invoiceNumber(r.number),
  kind: r.kind,
  state: r.state,
  provider: r.provider,
  currency: r.currency,
  total: toMoney(r.total_cents),
  description: r.lines[0]?.description ?? '',
  issued_at: new Date(r.issued_at).toISOString(),
  due_date: r.due_date,
  paid_at: r.paid_at ? new Date(r.paid_at).toISOString() : null,
});

const planName = (plan: PlanType, frequency: BillFrequency) =>
  `${plan[0]?.toUpperCase()}${plan.slice(1)} ${frequency === '1' ? 'monthly' : 'yearly'}`;

/** Spec §5 quantity rules on the server: whole, 1 to 500 − current total (open orders counted). */
export function assertCanAdd(total: number, onOrder: number, quantity: number): void {
  if (total < 0) throw new AppError('licences_unlimited', 'This subscription has unlimited licences.');
  const max = Math.max(0, MAX_LICENCES - total - onOrder);
  if (quantity > max) {
    throw new AppError('licence_cap_exceeded', `At most ${MAX_LICENCES} licences in all: ${max} more can be added.`).shows(
      'billing.errors.cap',
      { max, limit: MAX_LICENCES },
    );
  }
}

/** Spec §5: a removal never goes below the licences in use; then the current count is kept. */
export function licencesAfterRemoval(total: number, used: number, quantity: number): number {
  return total - used - quantity;
}

export function createBillingService(db: Db, deps: BillingDeps = {}) {
  const today = deps.today ?? (() => todayUtc());
  const invoicePaidBy = deps.invoicePaidBy ?? 'super_admin';

  const load = async (q: Queryable, teamId: string, lock = false): Promise<SubscriptionRow> => {
    await repo.ensure(q, teamId);
    const row = await repo.find(q, teamId, lock);
    if (!row) throw new AppError('not_found', 'No such team.', 404);
    return row;
  };

  const purchasable = (s: SubscriptionRow) => {
    if (isManaged(s)) {
      throw new AppError(
        'billing_managed',
        `This subscription is managed by your ${s.purchase_partner === 'reseller' ? 'reseller' : 'benefit provider'}.`,
      ).shows('billing.errors.managed');
    }
  };

  const billTo = (s: SubscriptionRow) => ({ team_name: s.team_name, team_slug: s.team_slug, billing_email: s.billing_email });

  /** Applies a paid invoice's change to the locked subscription, in the caller's transaction. */
  async function apply(tx: Queryable, s: SubscriptionRow, change: InvoiceChange, day: string): Promise<void> {
    if ('add_licenses' in change) {
      const total = s.total_licences + change.add_licenses;
      if (s.total_licences >= 0 && total > MAX_LICENCES)
        throw new AppError('licence_cap_exceeded', `At most ${MAX_LICENCES} licences in all.`).shows('billing.errors.cap', {
          max: Math.max(0, MAX_LICENCES - s.total_licences),
          limit: MAX_LICENCES,
        });
      if (s.total_licences >= 0) await repo.setTotalLicences(tx, s.team_id, total);
    } else if ('plan' in change) {
      await repo.updateSubscription(tx, s.team_id, {
        plan: change.plan,
        plan_duration: change.plan_duration,
        unit_price_cents: change.unit_price_cents,
        term_start: change.term_start,
        bill_end_date: change.bill_end_date,
      });
      await repo.setTeamBilling(tx, s.team_id, {
        valid_till: change.bill_end_date,
        ...(s.team_type === 'organization' ? { organization_type: change.plan } : {}),
        ...(s.bill_state === 'trial' ? { bill_state: 'billed' } : {}),
      });
    } else if (change.renew_from === s.bill_end_date) {
      const next = addMonths(s.bill_end_date, Number(s.plan_duration));
      await repo.updateSubscription(tx, s.team_id, { term_start: s.bill_end_date, bill_end_date: next });
      await repo.setTeamBilling(tx, s.team_id, { valid_till: next });
    }
    // Back in good standing once nothing is overdue.
    if ((s.bill_state === 'pending' || s.bill_state === 'expired') && !(await repo.hasOverdue(tx, s.team_id, day))) {
      await repo.setTeamBilling(tx, s.team_id, { bill_state: 'billed' });
      await repo.updateSubscription(tx, s.team_id, { grace_until: null });
    }
  }

  /** Marks an open invoice paid and applies it (one transaction); `actor` null for the operator or a webhook. */
  async function payInvoice(
    tx: Queryable,
    teamId: string,
    invoiceId: string,
    actor: Caller | null,
    providerRef: string | null = null,
  ) {
    const s = await load(tx, teamId, true);
    const invoice = await repo.invoice(tx, teamId, invoiceId, true);
    if (!invoice) throw new AppError('invoice_not_found', 'No such invoice.', 404);
    if (invoice.state !== 'open')
      throw new AppError('invoice_not_open', `Invoice ${invoiceNumber(invoice.number)} is already ${invoice.state}.`).shows(
        'billing.errors.not_open',
      );
    const paid = await repo.markPaid(tx, invoice.id, providerRef);
    if (!paid) throw new AppError('invoice_not_open', 'The invoice is no longer open.');
    await apply(tx, s, invoice.change, today());
    await repo.recordEvent(tx, teamId, actor?.userId ?? null, 'billing_invoice_paid', actor?.email ?? s.billing_email, {
      invoice: invoiceNumber(invoice.number),
      change: invoice.change,
    });
    return paid;
  }

  const planUnit = (plan: PlanType, frequency: BillFrequency) => PLAN_PRICE_CENTS[plan][frequency];

  /** The licences a plan is priced for: those bought, or those in use when unlimited (at least one). */
  const pricedLicences = async (q: Queryable, s: SubscriptionRow) =>
    s.total_licences >= 0 ? Math.max(1, s.total_licences) : Math.max(1, await repo.usedLicences(q, s.team_id));

  async function planQuote(q: Queryable, s: SubscriptionRow, planId: string) {
    const target = parseSku(planId);
    if (!target) throw new AppError('invalid_input', 'No such plan.');
    if (s.bill_state !== 'trial' && target.plan === s.plan && target.frequency === s.plan_duration)
      throw new AppError('plan_unchanged', 'This is the current plan.').shows('billing.errors.plan_unchanged');
    const licences = await pricedLicences(q, s);
    const unit = planUnit(target.plan, target.frequency);
    const quote = quotePlanChange(
      { unitCents: s.unit_price_cents, frequency: s.plan_duration, trial: s.bill_state === 'trial' },
      { unitCents: unit, frequency: target.frequency },
      licences,
      { termStart: s.term_start, billEnd: s.bill_end_date },
      today(),
    );
    return { target, unit, licences, quote };
  }

  return {
    async subscription(caller: Caller): Promise<Subscription> {
      const s = await load(db, caller.team.id);
      const used = await repo.usedLicences(db, s.team_id);
      return {
        state: s.bill_state,
        display_state: BILL_STATE_DISPLAY[s.bill_state] ?? 'ended',
        plan: s.plan,
        plan_duration: s.plan_duration,
        plan_id: planSku(s.plan, s.plan_duration),
        bill_type: s.bill_type,
        purchase_partner: s.purchase_partner,
        managed: isManaged(s),
        term_start: s.term_start,
        bill_end_date: s.bill_end_date,
        grace_until: s.grace_until,
        billing_email: s.billing_email,
        autorenew: s.autorenew,
        currency: s.currency,
        total_license: s.total_licences,
        licenses_in_use: used,
        licenses_available: s.total_licences < 0 ? null : Math.max(0, s.total_licences - used),
        unit_price: toMoney(s.unit_price_cents),
        licenses_on_order: await repo.licencesOnOrder(db, s.team_id),
        invoice_paid_by: invoicePaidBy,
      };
    },

    async plans(caller: Caller): Promise<{ currency: string; plans: Plan[] }> {
      const s = await load(db, caller.team.id);
      const plans = PLAN_TYPES.flatMap((plan) =>
        BILL_FREQUENCIES.map((frequency) => {
          const id = planSku(plan, frequency);
          const price = toMoney(planUnit(plan, frequency));
          return {
            id,
            planType: plan,
            billFrequency: frequency,
            price,
            yearly_saving: frequency === '12' ? yearlySaving(toMoney(planUnit(plan, '1')), price) : null,
            saving_plan_id: savingPlanOf(id),
          };
        }),
      );
      return { currency: s.currency, plans };
    },

    async licenceQuote(caller: Caller, quantity: number) {
      const s = await load(db, caller.team.id);
      purchasable(s);
      assertCanAdd(s.total_licences, await repo.licencesOnOrder(db, s.team_id), quantity);
      const q = quoteLicences(s.unit_price_cents, quantity, { termStart: s.term_start, billEnd: s.bill_end_date }, today());
      return {
        currency: s.currency,
        price_per_license: toMoney(q.pricePerLicence),
        pro_rated_price: toMoney(q.proRated),
        quantity,
        remaining_days: q.remainingDays,
        term_days: q.termDays,
      };
    },

    async addLicences(caller: Caller, quantity: number) {
      return db.transaction(async (tx) => {
        const s = await load(tx, caller.team.id, true);
        purchasable(s);
        assertCanAdd(s.total_licences, await repo.licencesOnOrder(tx, s.team_id), quantity);
        const day = today();
        const q = quoteLicences(s.unit_price_cents, quantity, { termStart: s.term_start, billEnd: s.bill_end_date }, day);
        const invoice = await providerFor(s.purchase_partner).placeOrder(
          tx,
          {
            team_id: s.team_id,
            kind: 'licenses',
            currency: s.currency,
            lines: [
              {
                description: `${quantity} additional licence${quantity === 1 ? '' : 's'}, ${planName(s.plan, s.plan_duration)}, ${q.remainingDays} of ${q.termDays} days (${day} to ${addDays(s.bill_end_date, -1)})`,
                quantity,
                unit_cents: Math.round(q.proRated / quantity),
                amount_cents: q.proRated,
              },
            ],
            total_cents: q.proRated,
            change: { add_licenses: quantity },
            bill_to: billTo(s),
          },
          day,
        );
        await repo.recordEvent(tx, s.team_id, caller.userId, 'billing_licenses_ordered', caller.email, {
          quantity,
          invoice: invoiceNumber(invoice.number),
        });
        return { code: 'invoiced' as const, invoice: toInvoice(invoice) };
      });
    },

    async removeLicences(caller: Caller, quantity: number) {
      return db.transaction(async (tx) => {
        const s = await load(tx, caller.team.id, true);
        purchasable(s);
        if (s.total_licences < 0) throw new AppError('licences_unlimited', 'This subscription has unlimited licences.');
        const used = await repo.usedLicences(tx, s.team_id);
        const after = licencesAfterRemoval(s.total_licences, used, quantity);
        if (after < 0) {
          throw new AppError(
            'licence_removal_below_in_use',
            `${used} licences are in use: at most ${Math.max(0, s.total_licences - used)} can be removed.`,
          ).shows('billing.errors.below_in_use', { used, max: Math.max(0, s.total_licences - used) });
        }
        const total = s.total_licences - quantity;
        await repo.setTotalLicences(tx, s.team_id, total);
        await repo.recordEvent(tx, s.team_id, caller.userId, 'billing_licenses_removed', caller.email, { quantity, total });
        return { code: 'updated' as const, total_license: total, available_license_after_removal: after };
      });
    },

    async planQuote(caller: Caller, planId: string) {
      const s = await load(db, caller.team.id);
      purchasable(s);
      const { quote, licences } = await planQuote(db, s, planId);
      return {
        currency: s.currency,
        from_plan_id: planSku(s.plan, s.plan_duration),
        to_plan_id: planId,
        licenses: licences,
        credit: toMoney(quote.credit),
        charge: toMoney(quote.charge),
        amount_due: toMoney(quote.amountDue),
        term_start: quote.term.termStart,
        bill_end_date: quote.term.billEnd,
      };
    },

    async changePlan(caller: Caller, planId: string) {
      return db.transaction(async (tx) => {
        const s = await load(tx, caller.team.id, true);
        purchasable(s);
        const { target, unit, licences, quote } = await planQuote(tx, s, planId);
        const change: InvoiceChange = {
          plan: target.plan,
          plan_duration: target.frequency,
          unit_price_cents: unit,
          term_start: quote.term.termStart,
          bill_end_date: quote.term.billEnd,
        };
        const event = { from: planSku(s.plan, s.plan_duration), to: planId, amount_due: toMoney(quote.amountDue) };
        if (quote.amountDue === 0 && s.bill_state !== 'trial') {
          await apply(tx, s, change, today());
          await repo.recordEvent(tx, s.team_id, caller.userId, 'billing_plan_changed', caller.email, event);
          return { code: 'applied' as const, invoice: null };
        }
        const lines = [
          {
            description: `${planName(target.plan, target.frequency)} plan, ${licences} licence${licences === 1 ? '' : 's'}, ${quote.term.termStart} to ${addDays(quote.term.billEnd, -1)}`,
            quantity: licences,
            unit_cents: Math.round(quote.charge / licences),
            amount_cents: quote.charge,
          },
          ...(quote.credit > 0
            ? [
                {
                  description: `Credit for the unused ${planName(s.plan, s.plan_duration)} term`,
                  quantity: 1,
                  unit_cents: -Math.min(quote.credit, quote.charge),
                  amount_cents: -Math.min(quote.credit, quote.charge),
                },
              ]
            : []),
        ];
        const invoice = await providerFor(s.purchase_partner).placeOrder(
          tx,
          {
            team_id: s.team_id,
            kind: 'plan_change',
            currency: s.currency,
            lines,
            total_cents: quote.amountDue,
            change,
            bill_to: billTo(s),
          },
          today(),
        );
        await repo.recordEvent(tx, s.team_id, caller.userId, 'billing_plan_change_ordered', caller.email, {
          ...event,
          invoice: invoiceNumber(invoice.number),
        });
        return { code: 'invoiced' as const, invoice: toInvoice(invoice) };
      });
    },

    async updateEmail(caller: Caller, email: string) {
      await db.transaction(async (tx) => {
        const s = await load(tx, caller.team.id, true);
        await repo.updateSubscription(tx, s.team_id, { billing_email: email });
        await repo.recordEvent(tx, s.team_id, caller.userId, 'billing_email_changed', caller.email, {
          from: s.billing_email,
          to: email,
        });
      });
      return { code: 'updated' as const, billing_email: email };
    },

    async updateAutorenew(caller: Caller, autorenew: boolean) {
      await db.transaction(async (tx) => {
        const s = await load(tx, caller.team.id, true);
        purchasable(s);
        await repo.updateSubscription(tx, s.team_id, { autorenew });
        await repo.recordEvent(tx, s.team_id, caller.userId, 'billing_autorenew_changed', caller.email, { autorenew });
      });
      return { code: 'updated' as const, autorenew };
    },

    async invoices(caller: Caller, page: number, pageSize: number) {
      const [rows, total] = await Promise.all([
        repo.invoicesPage(db, caller.team.id, pageSize, (page - 1) * pageSize),
        repo.countInvoices(db, caller.team.id),
      ]);
      return { results: rows.map(toInvoice), total, pages: Math.max(1, Math.ceil(total / pageSize)) };
    },

    async invoicePdf(caller: Caller, id: string) {
      const row = await repo.invoice(db, caller.team.id, id);
      if (!row) throw new AppError('invoice_not_found', 'No such invoice.', 404);
      const pdf = await renderInvoicePdf(row, { name: 'Latchkey' });
      return {
        filename: `${invoiceNumber(row.number)}.pdf`,
        content_type: 'application/pdf' as const,
        pdf_base64: pdf.toString('base64'),
      };
    },

    /** The super admin of a self-hosted server records a manual invoice as paid. */
    async markPaid(caller: Caller, id: string) {
      // A hosted licence server: a payment received is the operator's to record, not the customer's.
      if (invoicePaidBy === 'operator')
        throw forbidden('On this server the operator records payments (npm run cli -- invoice-paid).').shows(
          'billing.invoice.paid_by_operator',
        );
      const paid = await db.transaction(async (tx) => {
        const s = await load(tx, caller.team.id, true);
        purchasable(s);
        const invoice = await repo.invoice(tx, s.team_id, id);
        if (invoice && invoice.provider !== 'manual')
          throw new AppError('invoice_not_open', 'This invoice is paid through the purchase partner.').shows(
            'billing.errors.not_manual',
          );
        return payInvoice(tx, s.team_id, id, caller);
      });
      return { code: 'applied' as const, invoice: toInvoice(paid) };
    },

    /** The operator's `invoice-paid` (CLI): by number, any team. */
    async markPaidByNumber(number: number) {
      return db.transaction(async (tx) => {
        const invoice = await repo.invoiceByNumber(tx, number);
        if (!invoice) throw new AppError('invoice_not_found', `There is no invoice ${invoiceNumber(number)}.`, 404);
        return toInvoice(await payInvoice(tx, invoice.team_id, invoice.id, null));
      });
    },

    /**
     * The schedule of manual invoicing, run by the job queue: renewal invoices issued ahead of the
     * renewal date; a team with an invoice unpaid after its due date enters its grace period
     * (pending); after the grace period, or at the end of a term not renewing, it expires.
     */
    async sweep(day = today()) {
      const outcome = { renewals: 0, overdue: 0, expired: 0 };
      for (const teamId of await repo.renewalsDue(db, addDays(day, RENEWAL_NOTICE_DAYS))) {
        await db.transaction(async (tx) => {
          const s = await load(tx, teamId, true);
          const licences = await pricedLicences(tx, s);
          const next = addMonths(s.bill_end_date, Number(s.plan_duration));
          const amount = s.unit_price_cents * licences;
          const made = await repo.insertInvoice(tx, {
            team_id: teamId,
            kind: 'renewal',
            provider: 'manual',
            currency: s.currency,
            lines: [
              {
                description: `Renewal, ${planName(s.plan, s.plan_duration)} plan, ${licences} licence${licences === 1 ? '' : 's'}, ${s.bill_end_date} to ${addDays(next, -1)}`,
                quantity: licences,
                unit_cents: s.unit_price_cents,
                amount_cents: amount,
              },
            ],
            total_cents: amount,
            change: { renew_from: s.bill_end_date },
            bill_to: billTo(s),
            due_date: s.bill_end_date,
          });
          if (made) {
            outcome.renewals++;
            await repo.recordEvent(tx, teamId, null, 'billing_renewal_invoiced', s.billing_email, {
              invoice: invoiceNumber(made.number),
            });
          }
        });
      }
      for (const { team_id, due_date } of await repo.overdueTeams(db, day)) {
        await db.transaction(async (tx) => {
          const s = await load(tx, team_id, true);
          if (s.bill_state !== 'billed') return;
          const graceUntil = addDays(due_date, GRACE_DAYS);
          await repo.setTeamBilling(tx, team_id, { bill_state: 'pending' });
          await repo.updateSubscription(tx, team_id, { grace_until: graceUntil });
          await repo.recordEvent(tx, team_id, null, 'billing_state_changed', s.billing_email, {
            from: 'billed',
            to: 'pending',
            grace_until: graceUntil,
          });
          outcome.overdue++;
        });
      }
      for (const teamId of await repo.endedTeams(db, day)) {
        await db.transaction(async (tx) => {
          const s = await load(tx, teamId, true);
          if (s.bill_state !== 'pending' && s.bill_state !== 'billed') return;
          await repo.setTeamBilling(tx, teamId, { bill_state: 'expired' });
          await repo.recordEvent(tx, teamId, null, 'billing_state_changed', s.billing_email, {
            from: s.bill_state,
            to: 'expired',
          });
          outcome.expired++;
        });
      }
      return outcome;
    },

    /** FastSpring's signature: base64 HMAC-SHA256 of the raw body with the webhook secret. */
    verifySignature(raw: Buffer | undefined, signature: string | undefined): void {
      const secret = deps.fastSpringSecret;
      const refuse = () => new AppError('signature_invalid', 'The webhook signature is missing or wrong.', 401);
      if (!secret || !raw || !signature) throw refuse();
      const expected = createHmac('sha256', secret).update(raw).digest();
      const given = Buffer.from(signature, 'base64');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
    },

    /** FastSpring's events, each applied once (by its id) in its own transaction. */
    async fastSpringEvents(events: { id: string; type: string; data: Record<string, unknown> }[]) {
      const result = { processed: [] as string[], duplicates: [] as string[], ignored: [] as string[] };
      for (const event of events) {
        const outcome = await db.transaction(async (tx) => {
          const teamId = await fastSpringTeam(tx, event.data);
          const fresh = await repo.recordProviderEvent(tx, {
            provider: 'fastspring',
            event_id: event.id,
            type: event.type,
            team_id: teamId ?? null,
            outcome: teamId ? 'processed' : 'ignored',
          });
          if (!fresh) return 'duplicates' as const;
          if (!teamId) return 'ignored' as const;
          return (await applyFastSpring(tx, teamId, event)) ? ('processed' as const) : ('ignored' as const);
        });
        result[outcome].push(event.id);
      }
      return result;
    },
  };

  async function fastSpringTeam(tx: Queryable, data: Record<string, unknown>): Promise<string | undefined> {
    const tags = (data.tags ?? {}) as Record<string, unknown>;
    if (typeof tags.team === 'string') return repo.teamIdBySlug(tx, tags.team);
    const sub =
      typeof data.subscription === 'string' ? data.subscription : (data.subscription as { id?: unknown } | undefined)?.id;
    const id = typeof sub === 'string' ? sub : typeof data.id === 'string' ? data.id : undefined;
    return id ? repo.teamIdByProviderSubscription(tx, id) : undefined;
  }

  async function applyFastSpring(
    tx: Queryable,
    teamId: string,
    event: { id: string; type: string; data: Record<string, unknown> },
  ) {
    const s = await load(tx, teamId, true);
    const data = event.data;
    const day = today();
    const record = (detail: Record<string, unknown>) =>
      repo.recordEvent(tx, teamId, null, `billing_fastspring_${event.type.replaceAll('.', '_')}`, s.billing_email, {
        event: event.id,
        ...detail,
      });
    switch (event.type) {
      case 'subscription.activated': {
        const product = typeof data.product === 'string' ? data.product : '';
        const sku = parseSku(product.replace(/^latchkey-/, ''));
        if (!sku) return false;
        const quantity = Math.min(MAX_LICENCES, Math.max(1, Math.trunc(Number(data.quantity) || 1)));
        const currency = typeof data.currency === 'string' && /^[A-Z]{3}$/.test(data.currency) ? data.currency : s.currency;
        const unit = Number.isFinite(Number(data.price))
          ? Math.round(Number(data.price) * 100)
          : PLAN_PRICE_CENTS[sku.plan][sku.frequency];
        const billEnd = addMonths(day, Number(sku.frequency));
        await repo.updateSubscription(tx, teamId, {
          plan: sku.plan,
          plan_duration: sku.frequency,
          term_start: day,
          bill_end_date: billEnd,
          grace_until: null,
          currency,
          unit_price_cents: unit,
          provider_subscription_id: typeof data.id === 'string' ? data.id : null,
          autorenew: data.autoRenew !== false,
        });
        await repo.setTotalLicences(tx, teamId, quantity);
        await repo.setTeamBilling(tx, teamId, {
          bill_state: 'billed',
          bill_type: 'automatic',
          purchase_partner: 'fastspring',
          valid_till: billEnd,
          ...(s.team_type === 'organization' ? { organization_type: sku.plan } : {}),
        });
        await repo.insertInvoice(tx, {
          team_id: teamId,
          kind: 'plan_change',
          state: 'paid',
          provider: 'fastspring',
          provider_ref: event.id,
          currency,
          lines: [
            {
              description: `${planName(sku.plan, sku.frequency)} plan, ${quantity} licence${quantity === 1 ? '' : 's'}, ${day} to ${addDays(billEnd, -1)}`,
              quantity,
              unit_cents: unit,
              amount_cents: unit * quantity,
            },
          ],
          total_cents: unit * quantity,
          change: {
            plan: sku.plan,
            plan_duration: sku.frequency,
            unit_price_cents: unit,
            term_start: day,
            bill_end_date: billEnd,
          },
          bill_to: billTo(s),
          due_date: day,
        });
        await record({ plan: planSku(sku.plan, sku.frequency), quantity });
        return true;
      }
      case 'subscription.charge.completed': {
        const tags = (data.tags ?? {}) as Record<string, unknown>;
        const invoiceId = typeof tags.latchkey_invoice === 'string' ? tags.latchkey_invoice : null;
        if (invoiceId && /^[0-9a-f-]{36}$/i.test(invoiceId)) {
          const open = await repo.invoice(tx, teamId, invoiceId);
          if (open?.state === 'open' && open.provider === 'fastspring') {
            await payInvoice(tx, teamId, invoiceId, null, event.id);
            await record({ invoice: invoiceNumber(open.number) });
            return true;
          }
        }
        // A renewal charge: the next term.
        const next = addMonths(s.bill_end_date, Number(s.plan_duration));
        const total = Number.isFinite(Number(data.total)) ? Math.max(0, Math.round(Number(data.total) * 100)) : 0;
        await repo.insertInvoice(tx, {
          team_id: teamId,
          kind: 'renewal',
          state: 'paid',
          provider: 'fastspring',
          provider_ref: event.id,
          currency: s.currency,
          lines: [
            {
              description: `Renewal, ${planName(s.plan, s.plan_duration)} plan, ${s.bill_end_date} to ${addDays(next, -1)}`,
              quantity: 1,
              unit_cents: total,
              amount_cents: total,
            },
          ],
          total_cents: total,
          change: { renew_from: s.bill_end_date },
          bill_to: billTo(s),
          due_date: day,
        });
        await repo.updateSubscription(tx, teamId, { term_start: s.bill_end_date, bill_end_date: next, grace_until: null });
        await repo.setTeamBilling(tx, teamId, { bill_state: 'billed', valid_till: next });
        await record({ renewed_until: next });
        return true;
      }
      case 'subscription.deactivated':
        await repo.setTeamBilling(tx, teamId, { bill_state: 'expired' });
        await repo.updateSubscription(tx, teamId, { autorenew: false });
        await record({});
        return true;
      case 'subscription.payment.overdue': {
        if (s.bill_state !== 'billed') return true;
        const graceUntil = addDays(day, GRACE_DAYS);
        await repo.setTeamBilling(tx, teamId, { bill_state: 'pending' });
        await repo.updateSubscription(tx, teamId, { grace_until: graceUntil });
        await record({ grace_until: graceUntil });
        return true;
      }
      default:
        return false;
    }
  }
}

export type BillingService = ReturnType<typeof createBillingService>;
