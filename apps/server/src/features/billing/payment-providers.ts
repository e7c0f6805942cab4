import type { Queryable } from '@latchkey/runtime';
import { type InvoiceRow, type NewInvoice, invoicesRepository as repo } from './invoices.repository.ts';
import { addDays } from './proration.ts';

/** An order the console placed: its invoice, as the provider issues it. */
type Order = Omit<NewInvoice, 'provider' | 'due_date' | 'state'> & { due_date?: string };

/**
 * Who takes the payment. An order always becomes an invoice; the provider decides how it gets
 * paid: manual invoicing (bank transfer; an operator or the self-hosting super admin marks it
 * paid), or FastSpring (the purchase partner's checkout; its webhook reports the charge).
 */
interface PaymentProvider {
  readonly id: 'manual' | 'fastspring';
  placeOrder(tx: Queryable, order: Order, today: string): Promise<InvoiceRow>;
  /** Whether a super admin may mark this provider's invoices paid in the console. */
  readonly markPaidInConsole: boolean;
}

/** Days to pay a manual invoice. */
const PAYMENT_TERMS_DAYS = 14;

async function issue(tx: Queryable, invoice: NewInvoice): Promise<InvoiceRow> {
  const row = await repo.insertInvoice(tx, invoice);
  if (!row) throw new Error('invoice not issued');
  return row;
}

const manualInvoicing: PaymentProvider = {
  id: 'manual',
  markPaidInConsole: true,
  placeOrder: (tx, order, today) =>
    issue(tx, { ...order, provider: 'manual', due_date: order.due_date ?? addDays(today, PAYMENT_TERMS_DAYS) }),
};

/**
 * FastSpring: the invoice waits for `subscription.charge.completed` naming it
 * (`tags.latchkey_invoice`), sent after the customer pays in FastSpring's checkout.
 */
const fastSpring: PaymentProvider = {
  id: 'fastspring',
  markPaidInConsole: false,
  placeOrder: (tx, order, today) => issue(tx, { ...order, provider: 'fastspring', due_date: order.due_date ?? today }),
};

export const providerFor = (purchasePartner: string | null): PaymentProvider =>
  purchasePartner === 'fastspring' ? fastSpring : manualInvoicing;
