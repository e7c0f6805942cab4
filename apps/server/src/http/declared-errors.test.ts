import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_ADMINS } from '../features/demo/index.ts';
import { type Harness, startHarness } from '../test/harness.ts';

/**
 * Answers a longer fuzz run found that their calls did not declare: each is the caller's mistake
 * with its own code, listed in the call's declaration (and so in the OpenAPI document the console
 * and integrators read). An undeclared code fails the tests as a 500.
 */
let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
});
afterAll(() => h?.close());

const NOBODY = { email: 'nobody@nowhere.example', password: 'Not-a-password-1', team_slug: 'northwind' };

test.each([
  ['/api/v1/console/auth/verify/otp/', { ...NOBODY, otp: '123456' }],
  ['/api/v1/console/auth/verify/recovery/code/', { ...NOBODY, recovery_code: 'abcd-efgh' }],
  ['/api/v1/console/auth/u2f/options/', NOBODY],
  ['/api/v1/console/auth/verify/u2f/', { ...NOBODY, response: {} }],
])('%s with an email no one has: email_notregistered, as the password step answers', async (path, body) => {
  const res = await h.post(path, body);
  expect(res.status, res.text).toBe(404);
  expect(res.body.code).toBe('email_notregistered');
});

test('confirming an authenticator change that was never started: totp_not_enabled', async () => {
  const res = await h.post('/api/v1/console/auth/totp/change/verify/', { totp: '123456' }, token);
  expect(res.status, res.text).toBe(409);
  expect(res.body.code).toBe('totp_not_enabled');
});

test('taking members out of a group that does not exist: group_not_found', async () => {
  const res = await h.post(
    '/api/v1/team/group/members/remove/',
    { id: 'ffffffff-ffff-4fff-bfff-ffffffffffff', emails: ['adam@northwind.example'] },
    token,
  );
  expect(res.status, res.text).toBe(404);
  expect(res.body.code).toBe('group_not_found');
});
