import { endpointsOf } from '@latchkey/contracts';
import { fuzzProgram } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CONSENT_CALLBACK_PATH, STAND_IN_PATH } from '../features/onboarding/consent.ts';
import { type Harness, startHarness } from '../test/harness.ts';

/** FUZZ_RUNS=200 for a longer hunt; the default keeps this file well under a minute. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);

let h: Harness;
let sent = 0;
let token: string;
beforeAll(async () => {
  // A real Hub behind the demo team, so the calls that reach it go all the way.
  h = await startHarness({ hub: true, rateLimitPerMinute: 1_000_000, env: { TRUST_PROXY: 'true' } });
  token = (await h.signIn('alex@northwind.example')).token.access;
});
afterAll(() => h?.close());

// Signing out last: it ends the session the other calls are made in.
const endpoints = endpointsOf('server').sort((a, b) => Number(a.path.includes('signout')) - Number(b.path.includes('signout')));

test('security finding 7: no body, query or type sent to any server call is answered with 500', async () => {
  const report = await fuzzProgram({
    url: h.url,
    endpoints,
    callers: [
      { name: 'anonymous' },
      { name: 'super admin', authorization: () => `Bearer ${token}`, calls: (e) => e.auth !== 'public' },
    ],
    numRuns: RUNS,
    seed: 20261124,
    // A new client address each time: the per-address sign-in limits would otherwise answer 429 to most calls.
    headers: () => ({ 'x-forwarded-for': `10.${(++sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}` }),
    // The pages a cloud sends the browser back to, with whatever it put in the address.
    queryRoutes: [
      { path: CONSENT_CALLBACK_PATH, keys: ['state', 'error', 'admin_consent', 'tenant', 'scope', 'code'] },
      { path: STAND_IN_PATH, keys: ['state'] },
    ],
  });
  expect(report.failures).toEqual([]);
  // The signed-in caller got past the guard (not only 401s), or the test proves little.
  const signedIn = Object.entries(report.statuses).filter(([k]) => k.startsWith('super admin') && !k.endsWith('401'));
  expect(
    signedIn.reduce((n, [, count]) => n + count, 0),
    JSON.stringify(report.statuses),
  ).toBeGreaterThan(report.requests / 4);
}, 240_000);
