import { parseSku, planSku } from '@latchkey/contracts';
import { AppError, type Queryable } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { billingRepository as repo, type SubscriptionRow } from './billing.repository.ts';
import {
  assertPurchasable,
  type BillingContext,
  billTo,
  loadSubscription,
  planName,
  planUnit,
  pricedLicences,
  toInvoice,
} from './billing-context.ts';
import { applyInvoiceChange } from './invoice-payment.ts';
import { invoiceNumber } from './invoice-pdf.ts';
import type { InvoiceChange } from './invoices.repository.ts';
import { providerFor } from './payment-providers.ts';
import { addDays, quotePlanChange, toMoney } from './proration.ts';

/** The target plan, its unit price, the licences priced and the credit/charge of moving to it today. */
async function quoteFor(q: Queryable, s: SubscriptionRow, planId: string, day: string) {
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
    day,
  );
  return { target, unit, licences, quote };
}

/** What a plan change would cost today, for the confirmation dialog. */
export async function quotePlanChangeFor({ db, today }: BillingContext, caller: Caller, planId: string) {
  const s = await loadSubscription(db, caller.team.id);
  assertPurchasable(s);
  const { quote, licences } = await quoteFor(db, s, planId, today());
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
}

/** Changes the plan: at once when nothing is due (and not on trial), else through an invoice. */
export async function changePlan({ db, today }: BillingContext, caller: Caller, planId: string) {
  return db.transaction(async (tx) => {
    const s = await loadSubscription(tx, caller.team.id, true);
    assertPurchasable(s);
    const { target, unit, licences, quote } = await quoteFor(tx, s, planId, today());
    const change: InvoiceChange = {
      plan: target.plan,
      plan_duration: target.frequency,
      unit_price_cents: unit,
      term_start: quote.term.termStart,
      bill_end_date: quote.term.billEnd,
    };
    const event = { from: planSku(s.plan, s.plan_duration), to: planId, amount_due: toMoney(quote.amountDue) };
    if (quote.amountDue === 0 && s.bill_state !== 'trial') {
      await applyInvoiceChange(tx, s, change, today());
      await repo.recordEvent(tx, s.team_id, caller.userId, 'billing_plan_changed', caller.email, event);
      return { code: 'applied' as const, invoice: null };
    }
    const lines = [
      {
        description: `${planName(target.plan, target.frequency)} plan, ${licences} licence${licences === 1 ? '' : 's'}, ${quote.term.termStart} to ${addDays(quote.term.billEnd, -1)}`,
        detail: {
          plan: target.plan,
          plan_duration: target.frequency,
          licences,
          from: quote.term.termStart,
          to: addDays(quote.term.billEnd, -1),
        },
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
}
