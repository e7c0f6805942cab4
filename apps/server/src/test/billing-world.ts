import { createHmac } from 'node:crypto';
import { Invoice, Subscription } from '@latchkey/contracts';
import { afterAll, beforeAll, expect } from 'vitest';
import { z } from 'zod';
import { BILLING_DEMO_ADMINS, seedBillingDemo } from '../features/billing/billing.demo.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../features/demo/index.ts';
import { type Harness, startHarness } from './harness.ts';

const SECRET = 'fastspring-test-secret-0123456789';

/**
 * The billing tests' world: a server with the billing demo seeded and FastSpring's webhook secret
 * set (started before the file's tests, closed after them), each demo team's admin signed in, and
 * the calls the tests make on billing.
 */
export function billingWorld() {
  let harness: Harness | undefined;
  const h = () => harness as Harness;
  const tokens = new Map<string, string>();
  beforeAll(async () => {
    const started = await startHarness({ env: { FASTSPRING_WEBHOOK_SECRET: SECRET } });
    harness = started;
    await seedBillingDemo(started.db, DEMO_PASSWORD);
    for (const [role, email] of Object.entries(DEMO_ADMINS)) tokens.set(role, (await started.signIn(email)).token.access);
    tokens.set('family', (await started.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
    tokens.set('grace', (await started.signIn(BILLING_DEMO_ADMINS.grace, 'proseware')).token.access);
    tokens.set('reseller', (await started.signIn(BILLING_DEMO_ADMINS.reseller, 'wingtip')).token.access);
    tokens.set('fastspring', (await started.signIn(BILLING_DEMO_ADMINS.fastspring, 'lucerne')).token.access);
    tokens.set('ended', (await started.signIn(BILLING_DEMO_ADMINS.ended, 'adatum')).token.access);
    tokens.set('benefit', (await started.signIn(BILLING_DEMO_ADMINS.benefit, 'woodgrove')).token.access);
  }, 120_000);
  afterAll(() => harness?.close());

  const token = (who: string) => tokens.get(who) as string;
  const subscription = async (who = 'superAdmin') => {
    const res = await h().post('/api/v1/billing/subscription/', {}, token(who));
    expect(res.status, res.text).toBe(200);
    return Subscription.strict().parse(res.body);
  };
  const invoices = async (who = 'superAdmin') => {
    const res = await h().post('/api/v1/billing/invoices/', { page_size: 100 }, token(who));
    expect(res.status, res.text).toBe(200);
    return z.object({ results: z.array(Invoice.strict()), total: z.number(), pages: z.number() }).parse(res.body).results;
  };
  const events = (action: string) =>
    h().db.query<{ detail: Record<string, unknown> }>('select detail from member_events where action = $1 order by id', [action]);
  const teamState = async (slug: string) =>
    (
      await h().db.query<{ bill_state: string; total_licences: number }>(
        'select bill_state, total_licences from teams where slug = $1',
        [slug],
      )
    )[0];

  const sign = (raw: string, secret = SECRET) => createHmac('sha256', secret).update(raw).digest('base64');
  async function webhook(body: unknown, signature?: string) {
    const raw = JSON.stringify(body);
    const res = await fetch(`${h().url}/api/v1/billing/fastspring/webhook/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature !== undefined ? { 'x-fs-signature': signature } : { 'x-fs-signature': sign(raw) }),
      },
      body: raw,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  return { h, token, subscription, invoices, events, teamState, sign, webhook };
}
