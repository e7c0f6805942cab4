import { Invoice } from '@latchkey/contracts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../demo/index.ts';
import { BILLING_DEMO_ADMINS, seedBillingDemo } from './billing.demo.ts';

let h: Harness;
const tokens = new Map<string, string>();
beforeAll(async () => {
  h = await startHarness();
  await seedBillingDemo(h.db, DEMO_PASSWORD);
  tokens.set('northwind', (await h.signIn(DEMO_ADMINS.superAdmin)).token.access);
  tokens.set('grace', (await h.signIn(BILLING_DEMO_ADMINS.grace, 'proseware')).token.access);
}, 120_000);
afterAll(() => h?.close());

const numbersOf = async (who: string) => {
  const res = await h.post('/api/v1/billing/invoices/', { page_size: 100 }, tokens.get(who));
  expect(res.status, res.text).toBe(200);
  return z
    .object({ results: z.array(Invoice) })
    .parse(res.body)
    .results.map((i) => i.number)
    .sort();
};
const counted = (n: number) => Array.from({ length: n }, (_, i) => `LK-${String(i + 1).padStart(6, '0')}`);
const order = async (who: string) => {
  const res = await h.post('/api/v1/billing/licenses/add/', { quantity: 1 }, tokens.get(who));
  expect(res.status, res.text).toBe(200);
  return Invoice.parse((res.body as { invoice: unknown }).invoice).number;
};

test("numbers count per team: each team's invoices are LK-000001, LK-000002, … whatever other teams issued", async () => {
  // The demo issued another team's invoices first.
  const issued = await numbersOf('grace');
  expect(issued.length).toBeGreaterThan(0);
  expect(issued).toEqual(counted(issued.length));
  expect(await numbersOf('northwind')).toEqual([]);
  expect(await order('northwind')).toBe('LK-000001');
  const grace = (await numbersOf('grace')).length;
  expect(await order('grace')).toBe(counted(grace + 1)[grace]);
  expect(await order('northwind')).toBe('LK-000002');
});

test('orders of one team placed at once take consecutive numbers, none twice', async () => {
  const before = (await numbersOf('northwind')).length;
  const placed = await Promise.all([order('northwind'), order('northwind'), order('northwind')]);
  expect(placed.sort()).toEqual(counted(before + 3).slice(before));
});
