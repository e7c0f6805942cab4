import { AppError, forbidden } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { teamRepository } from '../team/index.ts';
import { billingRepository as repo } from './billing.repository.ts';
import { assertPurchasable, type BillingContext, loadSubscription, toInvoice } from './billing-context.ts';
import { payInvoice } from './invoice-payment.ts';
import { invoiceNumber, renderInvoicePdf } from './invoice-pdf.ts';

/** One page of the team's invoices, newest first. */
export async function listInvoices({ db }: BillingContext, caller: Caller, page: number, pageSize: number) {
  const [rows, total] = await Promise.all([
    repo.invoicesPage(db, caller.team.id, pageSize, (page - 1) * pageSize),
    repo.countInvoices(db, caller.team.id),
  ]);
  return { results: rows.map(toInvoice), total, pages: Math.max(1, Math.ceil(total / pageSize)) };
}

/** An invoice as a PDF (base64). */
export async function invoicePdf({ db }: BillingContext, caller: Caller, id: string) {
  const row = await repo.invoice(db, caller.team.id, id);
  if (!row) throw new AppError('invoice_not_found', 'No such invoice.', 404);
  const pdf = await renderInvoicePdf(row, { name: 'Latchkey' });
  return {
    filename: `${invoiceNumber(row.number)}.pdf`,
    content_type: 'application/pdf' as const,
    pdf_base64: pdf.toString('base64'),
  };
}

/** The super admin of a self-hosted server records a manual invoice as paid. */
export async function markInvoicePaid(ctx: BillingContext, caller: Caller, id: string) {
  // A hosted licence server: a payment received is the operator's to record, not the customer's.
  if (ctx.invoicePaidBy === 'operator')
    throw forbidden('On this server the operator records payments (npm run cli -- invoice-paid).').shows(
      'billing.invoice.paid_by_operator',
    );
  const paid = await ctx.db.transaction(async (tx) => {
    const s = await loadSubscription(tx, caller.team.id, true);
    assertPurchasable(s);
    const invoice = await repo.invoice(tx, s.team_id, id);
    if (invoice && invoice.provider !== 'manual')
      throw new AppError('invoice_not_open', 'This invoice is paid through the purchase partner.').shows(
        'billing.errors.not_manual',
      );
    return payInvoice(ctx, tx, s.team_id, id, caller);
  });
  return { code: 'applied' as const, invoice: toInvoice(paid) };
}

/** The operator's `invoice-paid` (CLI): a team's invoice by the number it shows (numbers count per team). */
export async function markInvoicePaidByNumber(ctx: BillingContext, teamSlug: string, number: number) {
  return ctx.db.transaction(async (tx) => {
    const team = await teamRepository.findBySlug(tx, teamSlug);
    if (!team) throw new AppError('not_found', `There is no team "${teamSlug}".`, 404);
    const invoice = await repo.invoiceByNumber(tx, team.id, number);
    if (!invoice) throw new AppError('invoice_not_found', `Team "${teamSlug}" has no invoice ${invoiceNumber(number)}.`, 404);
    return toInvoice(await payInvoice(ctx, tx, invoice.team_id, invoice.id, null));
  });
}
