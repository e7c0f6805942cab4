import { MAX_LICENCES } from '@latchkey/contracts';
import { AppError, type Queryable } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { billingRepository as repo, type SubscriptionRow } from './billing.repository.ts';
import { type BillingContext, loadSubscription } from './billing-context.ts';
import { invoiceNumber } from './invoice-pdf.ts';
import type { InvoiceChange } from './invoices.repository.ts';
import { addMonths } from './proration.ts';

/** Applies a paid invoice's change to the locked subscription, in the caller's transaction. */
export async function applyInvoiceChange(tx: Queryable, s: SubscriptionRow, change: InvoiceChange, day: string): Promise<void> {
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
export async function payInvoice(
  ctx: BillingContext,
  tx: Queryable,
  teamId: string,
  invoiceId: string,
  actor: Caller | null,
  providerRef: string | null = null,
) {
  const s = await loadSubscription(tx, teamId, true);
  const invoice = await repo.invoice(tx, teamId, invoiceId, true);
  if (!invoice) throw new AppError('invoice_not_found', 'No such invoice.', 404);
  if (invoice.state !== 'open')
    throw new AppError('invoice_not_open', `Invoice ${invoiceNumber(invoice.number)} is already ${invoice.state}.`).shows(
      'billing.errors.not_open',
    );
  const paid = await repo.markPaid(tx, invoice.id, providerRef);
  if (!paid) throw new AppError('invoice_not_open', 'The invoice is no longer open.');
  await applyInvoiceChange(tx, s, invoice.change, ctx.today());
  await repo.recordEvent(tx, teamId, actor?.userId ?? null, 'billing_invoice_paid', actor?.email ?? s.billing_email, {
    invoice: invoiceNumber(invoice.number),
    change: invoice.change,
  });
  return paid;
}
