import { BILL_STATE_DISPLAY, MAX_LICENCES } from '@latchkey/contracts';
import { AppError } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { billingRepository as repo, type SubscriptionRow } from './billing.repository.ts';
import { assertPurchasable, type BillingContext, billTo, loadSubscription, planName, toInvoice } from './billing-context.ts';
import { invoiceNumber } from './invoice-pdf.ts';
import { providerFor } from './payment-providers.ts';
import { addDays, quoteLicences, toMoney } from './proration.ts';

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

/** An ended subscription has no term left to add licences to: it renews by choosing a plan. */
function assertNotEnded(s: SubscriptionRow): void {
  if (BILL_STATE_DISPLAY[s.bill_state] === 'ended') {
    throw new AppError('subscription_ended', 'This subscription has ended. Choose a plan to renew it, then add licences.').shows(
      'billing.errors.ended',
    );
  }
}

/** The pro-rated price of more licences for the rest of the term. */
export async function quoteLicenceAddition({ db, today }: BillingContext, caller: Caller, quantity: number) {
  const s = await loadSubscription(db, caller.team.id);
  assertPurchasable(s);
  assertNotEnded(s);
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
}

/** Orders more licences: an invoice with the payment provider; the licences come when it is paid. */
export async function addLicences({ db, today }: BillingContext, caller: Caller, quantity: number) {
  return db.transaction(async (tx) => {
    const s = await loadSubscription(tx, caller.team.id, true);
    assertPurchasable(s);
    assertNotEnded(s);
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
            detail: {
              plan: s.plan,
              plan_duration: s.plan_duration,
              licences: quantity,
              from: day,
              to: addDays(s.bill_end_date, -1),
            },
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
}
