import { LoginSuccess } from '@latchkey/contracts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

const A = '/api/v1/console/auth';
const email = DEMO_ADMINS.integrator;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // A new admin: signs in with a password, but has none yet.
  await h.db.query('update users set password_hash = null where email = $1', [email]);
});
afterAll(() => h?.close());

test('set_password_first: the email code proves the address, the token sets the password once and signs in', async () => {
  const login = await h.post(`${A}/login/`, { email, team_slug: 'northwind' });
  expect(login.body).toMatchObject({ code: 'ok', auth_type: 'otp', otp_sent: true });
  const otp = await h.waitForCode(email);
  const verified = await h.post<{ code: string; set_auth_token: string }>(`${A}/verify/otp/`, {
    email,
    otp,
    team_slug: 'northwind',
  });
  expect(verified.body.code).toBe('set_password_first');
  const token = verified.body.set_auth_token;
  expect(token.length).toBeGreaterThan(30);
  // No session yet, and no password can be guessed in between.
  expect('token' in verified.body).toBe(false);

  const base = { email, team_slug: 'northwind', token };
  const mismatch = await h.post(`${A}/set/password/first/`, { ...base, password: 'first-password-1', confirm_password: 'x' });
  expect(mismatch.body.code).toBe('password_mismatch');
  const wrongToken = await h.post(`${A}/set/password/first/`, {
    ...base,
    token: 'x'.repeat(43),
    password: 'first-password-1',
    confirm_password: 'first-password-1',
  });
  expect(wrongToken.body.code).toBe('token_expired');
  const ok = await h.post(`${A}/set/password/first/`, {
    ...base,
    password: 'first-password-1',
    confirm_password: 'first-password-1',
  });
  expect(ok.status).toBe(200);
  LoginSuccess.parse(ok.body);
  const again = await h.post(`${A}/set/password/first/`, {
    ...base,
    password: 'first-password-2',
    confirm_password: 'first-password-2',
  });
  expect(again.body.code).toBe('token_expired');

  // From now on: email → password → code.
  expect((await h.post(`${A}/login/`, { email, team_slug: 'northwind' })).body).toMatchObject({ auth_type: 'password' });
  expect((await h.post(`${A}/verify/password/`, { email, password: 'first-password-1', team_slug: 'northwind' })).body.code).toBe(
    'otp_sent',
  );
});
