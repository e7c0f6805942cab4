import { describe, expect, test } from 'vitest';
import { billingWorld } from '../../test/billing-world.ts';

const { subscription, invoices, sign, webhook } = billingWorld();

describe('FastSpring webhook', () => {
  const activated = {
    events: [
      {
        id: 'evt-activated-1',
        type: 'subscription.activated',
        live: false,
        data: { id: 'fs-sub-new', product: 'enterprise-1', quantity: 40, currency: 'EUR', price: 10, tags: { team: 'lucerne' } },
      },
    ],
  };

  test('a bad or missing signature is refused and changes nothing', async () => {
    expect((await webhook(activated, sign(JSON.stringify(activated), 'another-secret-0123456789'))).status).toBe(401);
    expect((await webhook(activated, '')).status).toBe(401);
    expect((await webhook(activated, 'bm90IGEgc2lnbmF0dXJl')).body.code).toBe('signature_invalid');
    expect(await subscription('fastspring')).toMatchObject({ plan_id: 'standard-12', total_license: 15 });
  });

  test('subscription.activated applies once by event id', async () => {
    const first = await webhook(activated);
    expect(first).toEqual({ status: 200, body: { processed: ['evt-activated-1'], duplicates: [], ignored: [] } });
    expect(await subscription('fastspring')).toMatchObject({
      plan_id: 'enterprise-1',
      total_license: 40,
      currency: 'EUR',
      state: 'billed',
      purchase_partner: 'fastspring',
      bill_type: 'automatic',
    });
    const again = await webhook(activated);
    expect(again.body).toEqual({ processed: [], duplicates: ['evt-activated-1'], ignored: [] });
    expect((await invoices('fastspring')).filter((i) => i.provider === 'fastspring' && i.state === 'paid')).toHaveLength(1);
  });

  test('payment overdue → grace period, charge completed → billed and renewed, deactivated → ended', async () => {
    const before = await subscription('fastspring');
    await webhook({
      events: [{ id: 'evt-overdue-1', type: 'subscription.payment.overdue', data: { subscription: 'fs-sub-new' } }],
    });
    expect((await subscription('fastspring')).display_state).toBe('grace');
    const charged = await webhook({
      events: [
        {
          id: 'evt-charge-1',
          type: 'subscription.charge.completed',
          data: { subscription: { id: 'fs-sub-new' }, total: 400, currency: 'EUR' },
        },
      ],
    });
    expect(charged.body.processed).toEqual(['evt-charge-1']);
    expect(await subscription('fastspring')).toMatchObject({ state: 'billed', term_start: before.bill_end_date });
    await webhook({
      events: [{ id: 'evt-charge-1', type: 'subscription.charge.completed', data: { subscription: 'fs-sub-new' } }],
    });
    expect((await subscription('fastspring')).term_start).toBe(before.bill_end_date);
    await webhook({ events: [{ id: 'evt-deactivated-1', type: 'subscription.deactivated', data: { id: 'fs-sub-new' } }] });
    expect(await subscription('fastspring')).toMatchObject({ state: 'expired', display_state: 'ended', autorenew: false });
  });

  test('an event for no known subscription is ignored (and still answered 200)', async () => {
    const res = await webhook({ events: [{ id: 'evt-x', type: 'subscription.activated', data: { id: 'unknown' } }] });
    expect(res).toEqual({ status: 200, body: { processed: [], duplicates: [], ignored: ['evt-x'] } });
  });
});
