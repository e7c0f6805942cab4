import { Invoice, Subscription } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { createBillingService } from './billing.service.ts';

/**
 * Who records a manual invoice as paid (INVOICE_PAID_BY): the super admin in the console (the
 * default, for a self-hosted server whose operator is the one paid), or on a hosted licence server
 * the operator alone, with `npm run cli -- invoice-paid`.
 */
const servers: Record<'default' | 'operator', Harness | undefined> = { default: undefined, operator: undefined };
beforeAll(async () => {
  servers.default = await startHarness();
  servers.operator = await startHarness({ env: { INVOICE_PAID_BY: 'operator' } });
}, 60_000);
afterAll(async () => {
  await servers.default?.close();
  await servers.operator?.close();
});

/** The super admin orders a licence: a manual invoice, open. */
async function openInvoice(h: Harness, token: string) {
  const ordered = await h.post('/api/v1/billing/licenses/add/', { quantity: 1 }, token);
  expect(ordered.status, ordered.text).toBe(200);
  return Invoice.parse((ordered.body as { invoice: unknown }).invoice);
}
const subscription = async (h: Harness, token: string) =>
  Subscription.strict().parse((await h.post('/api/v1/billing/subscription/', {}, token)).body);

describe('marking a manual invoice paid', () => {
  test('by default the super admin does it in the console, and the subscription says so', async () => {
    const h = servers.default as Harness;
    const token = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
    expect((await subscription(h, token)).invoice_paid_by).toBe('super_admin');
    const invoice = await openInvoice(h, token);
    const paid = await h.post('/api/v1/billing/invoice/paid/', { id: invoice.id }, token);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ code: 'applied', invoice: { state: 'paid' } });
  });

  test('with INVOICE_PAID_BY=operator the console call is forbidden and changes nothing; the operator still records it', async () => {
    const h = servers.operator as Harness;
    const token = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
    const before = await subscription(h, token);
    expect(before.invoice_paid_by).toBe('operator');
    const invoice = await openInvoice(h, token);
    const refused = await h.post('/api/v1/billing/invoice/paid/', { id: invoice.id }, token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', message_key: 'billing.invoice.paid_by_operator' });
    const [row] = await h.db.query<{ state: string }>('select state from invoices where id = $1', [invoice.id]);
    expect(row?.state).toBe('open');
    expect((await subscription(h, token)).total_license).toBe(before.total_license);
    // The operator's path (the CLI's service call; billing-cli.test.ts runs the CLI itself with the setting).
    const applied = await createBillingService(h.db).markPaidByNumber('northwind', Number(invoice.number.slice(3)));
    expect(applied.state).toBe('paid');
    expect((await subscription(h, token)).total_license).toBe(before.total_license + 1);
  });
});
