import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

// Each connector's own budget: 4 requests a second here. The per-address limit (6 a
// minute: the sign-in and two connector creations use 5) does not count SCIM requests, or the
// second SCIM request from this address would already fail.
const PER_SECOND = 4;
let h: Harness;
const tokens: string[] = [];

beforeAll(async () => {
  h = await startHarness({ rateLimitPerMinute: 6, env: { SCIM_RATE_LIMIT_PER_SECOND: String(PER_SECOND) } });
  const admin = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
  for (const name of ['Entra ID', 'Okta']) {
    const created = await fetch(`${h.url}/api/v1/team/scim/connector/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      body: JSON.stringify({ idp: name === 'Okta' ? 'okta' : 'entra', name }),
    });
    expect(created.status).toBe(200);
    tokens.push(((await created.json()) as { token: string }).token);
  }
}, 60_000);
afterAll(() => h?.close());

const get = (token: string) => fetch(`${h.url}/scim/v2/Users?count=1`, { headers: { authorization: `Bearer ${token}` } });

test('a connector over its budget gets a SCIM 429 with Retry-After; another connector is unaffected', async () => {
  const [entra = '', okta = ''] = tokens;
  // Sent together, inside one window (well under a second on any machine).
  const replies = await Promise.all(Array.from({ length: PER_SECOND + 3 }, () => get(entra)));
  const statuses = replies.map((r) => r.status).sort();
  expect(
    statuses.every((s) => s === 200 || s === 429),
    String(statuses),
  ).toBe(true);
  expect(statuses.filter((s) => s === 200)).toHaveLength(PER_SECOND);
  expect(statuses.filter((s) => s === 429)).toHaveLength(3);
  const limited = replies.find((r) => r.status === 429) as Response;
  expect(limited.headers.get('content-type')).toContain('application/scim+json');
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(await limited.json()).toMatchObject({
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: '429',
    detail: expect.stringContaining('Too many requests'),
  });
  // The other connector has its own budget, at the same moment.
  expect((await get(okta)).status).toBe(200);
  // A bad token is refused as before (401), not counted against anyone.
  expect((await get('lkscim_not-a-token')).status).toBe(401);
  // The budget comes back with the next window.
  await new Promise((r) => setTimeout(r, 1100));
  expect((await get(entra)).status).toBe(200);
});

test('SCIM writes do not count against the per-address limit', async () => {
  await new Promise((r) => setTimeout(r, 1100));
  const [entra = ''] = tokens;
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${h.url}/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${entra}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({ userName: `rate.${i}@example.com` }),
    });
    statuses.push(res.status);
  }
  // 5 + 3 console-limited calls would be over 6 a minute.
  expect(statuses).toEqual([201, 201, 201]);
});

test('the rate-limited reply is in the connector request log', async () => {
  await new Promise((r) => setTimeout(r, 1100));
  const [entra = ''] = tokens;
  await Promise.all(Array.from({ length: PER_SECOND + 1 }, () => get(entra)));
  await new Promise((r) => setTimeout(r, 400)); // the log is written in batches
  const rows = await h.db.query<{ status: number; error: string | null }>(
    `select status, error from scim_requests where status = 429 order by id desc limit 1`,
  );
  expect(rows[0]?.error).toContain('Too many requests');
});
