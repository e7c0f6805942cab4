import { type Endpoint, endpointsOf, Invoice, Notification, Plan, ProRated } from '@latchkey/contracts';
import { pdfText } from '@latchkey/runtime/testing';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { billingWorld } from '../../test/billing-world.ts';
import { createBillingService } from './billing.service.ts';
import { addDays, quoteLicences, todayUtc } from './proration.ts';

const { h, token, subscription, invoices, events, teamState } = billingWorld();
const BILLING_CALLS = endpointsOf('server').filter(
  (e: Endpoint) => e.path.startsWith('/api/v1/billing/') && e.auth === 'session',
);

describe('access (spec §6: super admin only)', () => {
  test('every billing call refuses an admin, an integrator and a recovery agent', async () => {
    expect(BILLING_CALLS.length).toBeGreaterThanOrEqual(12);
    for (const endpoint of BILLING_CALLS) {
      for (const who of ['admin', 'integrator', 'recoveryAgent', 'twoTeams']) {
        const res = await h().post(endpoint.path, {}, token(who));
        expect(res.status, `${who} ${endpoint.path}`).toBe(403);
      }
      expect((await h().post(endpoint.path, {})).status, endpoint.path).toBe(401);
    }
  });
});

describe('the dashboard notice of each billing state (every admin sees trouble, not only on /billing)', () => {
  const notice = async (who: string) => {
    const res = await h().post('/organization/notification/', {}, token(who));
    expect(res.status, res.text).toBe(200);
    return Notification.strict().parse(res.body);
  };
  test('grace period: the days until it ends; ended: the day it ended, or none known after a refund; active: nothing', async () => {
    expect(await notice('grace')).toMatchObject({ code: 'grace', days_left: 9 });
    const ended = await notice('ended');
    expect(ended.code).toBe('ended');
    expect(ended.days_left).toBeLessThan(0);
    expect(await notice('benefit')).toMatchObject({ code: 'ended', days_left: null });
    for (const who of ['reseller', 'fastspring', 'superAdmin'])
      expect(await notice(who), who).toEqual({ code: null, days_left: null, notification: null });
  });
  test("an invoice carries what it is for as data, for the console to say in the admin's language", async () => {
    const [renewal] = await invoices('grace');
    expect(renewal?.detail).toEqual({
      plan: 'standard',
      plan_duration: '1',
      licences: 20,
      from: addDays(todayUtc(), -5),
      to: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });
  test('an ended benefit subscription does not renew automatically', async () => {
    expect(await subscription('benefit')).toMatchObject({ display_state: 'ended', managed: true, autorenew: false });
  });
});

describe('subscription and plans', () => {
  test("Northwind's subscription: enterprise yearly, billed (active), licences bought, in use and available", async () => {
    const s = await subscription();
    expect(s).toMatchObject({
      state: 'billed',
      display_state: 'active',
      plan: 'enterprise',
      plan_duration: '12',
      plan_id: 'enterprise-12',
      bill_type: 'manual',
      purchase_partner: null,
      managed: false,
      bill_end_date: '2027-07-01',
      billing_email: 'billing@northwind.example',
      currency: 'USD',
      unit_price: 96,
      licenses_on_order: 0,
    });
    expect(s.licenses_available).toBe(s.total_license - s.licenses_in_use);
    expect(s.licenses_available).toBe(6);
  });

  test('each state as the spec maps it: grace period, managed by a reseller (unlimited), trial', async () => {
    expect(await subscription('grace')).toMatchObject({
      state: 'pending',
      display_state: 'grace',
      grace_until: addDays(todayUtc(), 9),
    });
    expect(await subscription('reseller')).toMatchObject({
      display_state: 'active',
      purchase_partner: 'reseller',
      managed: true,
      total_license: -1,
      licenses_available: null,
    });
    expect(await subscription('family')).toMatchObject({ state: 'trial', display_state: 'trial' });
  });

  test('plans in spec order with the yearly saving and the saving-plan counterpart', async () => {
    const res = await h().post('/api/v1/billing/plans/', {}, token('superAdmin'));
    const { plans, currency } = z.object({ currency: z.string(), plans: z.array(Plan.strict()) }).parse(res.body);
    expect(currency).toBe('USD');
    expect(plans.map((p) => p.id)).toEqual([
      'starter-1',
      'starter-12',
      'standard-1',
      'standard-12',
      'enterprise-1',
      'enterprise-12',
    ]);
    expect(plans.find((p) => p.id === 'standard-12')).toMatchObject({ price: 72, yearly_saving: 12, saving_plan_id: null });
    expect(plans.find((p) => p.id === 'standard-1')).toMatchObject({
      price: 7,
      yearly_saving: null,
      saving_plan_id: 'standard-12',
    });
  });

  test('billing email: validated, then changed and recorded', async () => {
    const bad = await h().post('/api/v1/billing/email/update/', { billing_email: 'not-an-email' }, token('superAdmin'));
    expect(bad.status).toBe(400);
    const ok = await h().post('/api/v1/billing/email/update/', { billing_email: 'ap@northwind.example' }, token('superAdmin'));
    expect(ok.body).toEqual({ code: 'updated', billing_email: 'ap@northwind.example' });
    expect((await subscription()).billing_email).toBe('ap@northwind.example');
    expect((await events('billing_email_changed')).at(-1)?.detail).toMatchObject({ to: 'ap@northwind.example' });
  });

  test('autorenew toggles', async () => {
    expect((await h().post('/api/v1/billing/autorenew/update/', { autorenew: false }, token('superAdmin'))).status).toBe(200);
    expect((await subscription()).autorenew).toBe(false);
    await h().post('/api/v1/billing/autorenew/update/', { autorenew: true }, token('superAdmin'));
    expect((await subscription()).autorenew).toBe(true);
  });
});

describe('licences', () => {
  test('the quote is the server pro-rating for the rest of the term', async () => {
    const res = await h().post('/api/v1/billing/licenses/quote/', { quantity: 3 }, token('superAdmin'));
    const quote = ProRated.strict().parse(res.body);
    const expected = quoteLicences(9600, 3, { termStart: '2026-07-01', billEnd: '2027-07-01' }, todayUtc());
    expect(quote).toEqual({
      currency: 'USD',
      price_per_license: 96,
      pro_rated_price: expected.proRated / 100,
      quantity: 3,
      remaining_days: expected.remainingDays,
      term_days: 365,
    });
  });

  test('quantities outside 1..500 − total are refused, and the 500 cap holds on the server', async () => {
    for (const quantity of [0, -1, 1.5, 501, '3']) {
      const res = await h().post('/api/v1/billing/licenses/add/', { quantity }, token('superAdmin'));
      expect(res.status, String(quantity)).toBe(400);
      expect(res.body.code).toBe('invalid_input');
    }
    const { total_license } = await subscription();
    const over = await h().post('/api/v1/billing/licenses/add/', { quantity: 500 - total_license + 1 }, token('superAdmin'));
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 'licence_cap_exceeded', message_key: 'billing.errors.cap' });
    expect(await invoices()).toHaveLength(0);
  });

  test('adding licences issues an invoice; marking it paid applies them, once', async () => {
    const before = await subscription();
    const res = await h().post('/api/v1/billing/licenses/add/', { quantity: 4 }, token('superAdmin'));
    expect(res.status, res.text).toBe(200);
    const invoice = Invoice.parse((res.body as { invoice: unknown }).invoice);
    expect(invoice).toMatchObject({
      state: 'open',
      provider: 'manual',
      kind: 'licenses',
      number: expect.stringMatching(/^LK-\d{6}$/),
    });
    // From today to the term's last day, as data beside the English line.
    expect(invoice.detail).toMatchObject({
      plan: 'enterprise',
      plan_duration: '12',
      licences: 4,
      from: todayUtc(),
      to: '2027-06-30',
    });
    const pending = await subscription();
    expect(pending.total_license).toBe(before.total_license);
    expect(pending.licenses_on_order).toBe(4);
    const paid = await h().post('/api/v1/billing/invoice/paid/', { id: invoice.id }, token('superAdmin'));
    expect(paid.status, paid.text).toBe(200);
    expect((await subscription()).total_license).toBe(before.total_license + 4);
    const again = await h().post('/api/v1/billing/invoice/paid/', { id: invoice.id }, token('superAdmin'));
    expect(again.body.code).toBe('invoice_not_open');
    expect((await subscription()).total_license).toBe(before.total_license + 4);
    expect((await events('billing_invoice_paid')).length).toBe(1);
  });

  test('removal never goes below the licences in use; the count is kept when it would', async () => {
    const s = await subscription();
    const free = s.total_license - s.licenses_in_use;
    const refused = await h().post('/api/v1/billing/licenses/remove/', { quantity: free + 1 }, token('superAdmin'));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'licence_removal_below_in_use', message_key: 'billing.errors.below_in_use' });
    expect((await subscription()).total_license).toBe(s.total_license);
    const ok = await h().post('/api/v1/billing/licenses/remove/', { quantity: 2 }, token('superAdmin'));
    expect(ok.body).toEqual({ code: 'updated', total_license: s.total_license - 2, available_license_after_removal: free - 2 });
  });

  test('two orders at once cannot pass the 500 cap together (the rows are locked)', async () => {
    const s = await subscription('fastspring');
    const max = 500 - s.total_license - s.licenses_on_order;
    const quantity = Math.floor(max / 2) + 1;
    const replies = await Promise.all(
      [1, 2].map(() => h().post('/api/v1/billing/licenses/add/', { quantity }, token('fastspring'))),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(replies.find((r) => r.status === 400)?.body.code).toBe('licence_cap_exceeded');
    expect((await subscription('fastspring')).licenses_on_order).toBe(s.licenses_on_order + quantity);
    // A FastSpring team's order waits for FastSpring: it cannot be marked paid in the console.
    const open = Invoice.parse((replies.find((r) => r.status === 200)?.body as { invoice?: unknown } | undefined)?.invoice);
    expect(open.provider).toBe('fastspring');
    expect((await h().post('/api/v1/billing/invoice/paid/', { id: open.id }, token('fastspring'))).body.code).toBe(
      'invoice_not_open',
    );
  });

  test('an ended team cannot add licences (it renews by choosing a plan): quote and order refused, nothing issued', async () => {
    expect((await subscription('ended')).display_state).toBe('ended');
    const before = await invoices('ended');
    for (const path of ['/api/v1/billing/licenses/add/', '/api/v1/billing/licenses/quote/']) {
      const res = await h().post(path, { quantity: 1 }, token('ended'));
      expect(res.status, path).toBe(409);
      expect(res.body, path).toMatchObject({ code: 'subscription_ended', message_key: 'billing.errors.ended' });
    }
    expect(await invoices('ended')).toEqual(before);
    expect((await subscription('ended')).licenses_on_order).toBe(0);
  });

  test('a team managed by a reseller cannot buy', async () => {
    const res = await h().post('/api/v1/billing/licenses/add/', { quantity: 1 }, token('reseller'));
    expect(res.body).toMatchObject({ code: 'billing_managed', message_key: 'billing.errors.managed' });
    expect((await h().post('/api/v1/billing/plan/change/', { plan_id: 'standard-12' }, token('reseller'))).body.code).toBe(
      'billing_managed',
    );
  });

  test('invitations are refused when no licence is left', async () => {
    const s = await subscription('grace');
    const free = s.licenses_available ?? 0;
    const emails = Array.from({ length: free + 1 }, (_, i) => `new${i}@proseware.example`);
    const res = await h().post('/api/v1/team/members/invite/', { emails }, token('grace'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'licence_limit_exceeded', message_key: 'errors.not_enough_licences' });
  });
});

describe('plan changes', () => {
  test('the saving-plan switch (monthly → yearly) quotes the difference, then invoices and applies it', async () => {
    const quote = await h().post('/api/v1/billing/plan/quote/', { plan_id: 'standard-12' }, token('grace'));
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body).toMatchObject({ from_plan_id: 'standard-1', to_plan_id: 'standard-12', licenses: 20, charge: 1440 });
    const same = await h().post('/api/v1/billing/plan/quote/', { plan_id: 'standard-1' }, token('grace'));
    expect(same.body.code).toBe('plan_unchanged');
    const change = await h().post('/api/v1/billing/plan/change/', { plan_id: 'standard-12' }, token('grace'));
    expect(change.body.code).toBe('invoiced');
    const id = (change.body as { invoice: { id: string } }).invoice.id;
    expect((await subscription('grace')).plan_duration).toBe('1');
    await h().post('/api/v1/billing/invoice/paid/', { id }, token('grace'));
    const after = await subscription('grace');
    expect(after).toMatchObject({ plan_id: 'standard-12', unit_price: 72, term_start: todayUtc(), state: 'pending' });
    // The overdue invoice is still open: paying it ends the grace period.
    const overdue = (await invoices('grace')).find((i) => i.state === 'open');
    await h().post('/api/v1/billing/invoice/paid/', { id: overdue?.id }, token('grace'));
    expect(await subscription('grace')).toMatchObject({ state: 'billed', display_state: 'active', grace_until: null });
  });

  test('a trial converts to a paid plan when its invoice is paid', async () => {
    const change = await h().post('/api/v1/billing/plan/change/', { plan_id: 'starter-12' }, token('family'));
    expect(change.body.code).toBe('invoiced');
    expect((await subscription('family')).state).toBe('trial');
    await h().post(
      '/api/v1/billing/invoice/paid/',
      { id: (change.body as { invoice: { id: string } }).invoice.id },
      token('family'),
    );
    expect(await subscription('family')).toMatchObject({ state: 'billed', plan_id: 'starter-12' });
    expect((await h().post('/organization/notification/', {}, token('family'))).body.code).toBeNull();
  });
});

describe('invoices', () => {
  test('history and a PDF with the number, billing details and lines', async () => {
    const list = await invoices();
    expect(list.length).toBeGreaterThan(0);
    const first = list[0] as Invoice;
    const res = await h().post('/api/v1/billing/invoice/pdf/', { id: first.id }, token('superAdmin'));
    expect(res.status, res.text).toBe(200);
    const body = res.body as { filename: string; pdf_base64: string };
    expect(body.filename).toBe(`${first.number}.pdf`);
    const pdf = Buffer.from(body.pdf_base64, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain(`Invoice ${first.number}`);
    expect(text).toContain('Northwind Traders');
    expect(text).toContain('ap@northwind.example');
    expect(text).toContain('additional licences');
    // Another team's invoice is not found.
    expect((await h().post('/api/v1/billing/invoice/pdf/', { id: first.id }, token('grace'))).body.code).toBe(
      'invoice_not_found',
    );
  });
});

describe('manual invoicing schedule', () => {
  test('overdue → pending (grace period) → expired; paying brings the team back', async () => {
    const billing = createBillingService(h().db);
    const order = await h().post('/api/v1/billing/licenses/add/', { quantity: 1 }, token('superAdmin'));
    const invoice = Invoice.parse((order.body as { invoice: unknown }).invoice);
    expect(await billing.sweep(invoice.due_date)).toMatchObject({ overdue: 0, expired: 0 });
    expect((await teamState('northwind'))?.bill_state).toBe('billed');
    const late = addDays(invoice.due_date, 1);
    expect(await billing.sweep(late)).toMatchObject({ overdue: 1 });
    expect(await subscription()).toMatchObject({
      state: 'pending',
      display_state: 'grace',
      grace_until: addDays(invoice.due_date, 14),
    });
    expect(await billing.sweep(addDays(invoice.due_date, 14))).toMatchObject({ expired: 0 });
    expect(await billing.sweep(addDays(invoice.due_date, 15))).toMatchObject({ expired: 1 });
    expect(await subscription()).toMatchObject({ state: 'expired', display_state: 'ended' });
    await h().post('/api/v1/billing/invoice/paid/', { id: invoice.id }, token('superAdmin'));
    expect((await subscription()).state).toBe('billed');
  });

  test('a renewal invoice is issued once, two weeks before the renewal date', async () => {
    const billing = createBillingService(h().db);
    expect((await billing.sweep(addDays('2027-07-01', -15))).renewals).toBe(0);
    expect((await billing.sweep(addDays('2027-07-01', -14))).renewals).toBeGreaterThanOrEqual(1);
    expect((await billing.sweep(addDays('2027-07-01', -13))).renewals).toBe(0);
    const renewal = (await invoices()).find((i) => i.kind === 'renewal');
    expect(renewal).toMatchObject({ state: 'open', due_date: '2027-07-01' });
    await h().post('/api/v1/billing/invoice/paid/', { id: renewal?.id }, token('superAdmin'));
    expect(await subscription()).toMatchObject({ term_start: '2027-07-01', bill_end_date: '2028-07-01' });
  });

  test('the schedule runs on the job queue', async () => {
    const [row] = await h().db.query<{ n: number }>("select count(*)::int as n from job_queue.job where name = 'billing-sweep'");
    expect(row?.n).toBeGreaterThanOrEqual(1);
  });
});
