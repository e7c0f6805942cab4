import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../demo/seed.ts';

const A = '/api/v1/console/auth';
const ORIGIN = 'http://localhost:5173';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const post = async (path: string, body: unknown, token?: string) => {
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: ORIGIN };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(h.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { options?: Record<string, unknown> } };
};

test('registration options are bound to the console origin, exclude known keys, and a forged answer is refused', async () => {
  const { token } = await h.signIn(DEMO_ADMINS.admin);
  const res = await post(`${A}/u2f/register/`, {}, token.access);
  expect(res.status).toBe(200);
  expect(res.body.options).toMatchObject({ rp: { id: 'localhost' }, attestation: 'none' });
  expect(String(res.body.options?.challenge).length).toBeGreaterThan(20);
  const forged = await post(
    `${A}/u2f/register/verify/`,
    { response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } },
    token.access,
  );
  expect(forged.status).toBe(400);
  // The challenge was spent by that answer: a second try must start again.
  const again = await post(`${A}/u2f/register/verify/`, { response: { id: 'x' } }, token.access);
  expect(again.body.description).toBe('Start adding the security key again.');
});

test('an admin with a key: password replies u2f_required, emailed codes and codes-only sign-in are refused, a forged answer fails', async () => {
  const email = DEMO_ADMINS.integrator;
  const [user] = await h.db.query<{ id: string }>('select id from users where email = $1', [email]);
  await h.db.query("insert into security_keys (user_id, credential_id, public_key) values ($1, 'cred-1', 'AAAA')", [user?.id]);
  const proof = { email, password: DEMO_PASSWORD, team_slug: 'northwind' };
  expect((await post(`${A}/verify/password/`, proof)).body).toEqual({ code: 'u2f_required' });
  expect((await post(`${A}/verify/otp/`, { ...proof, otp: '123456' })).body.code).toBe('otp_invalid');
  const options = await post(`${A}/u2f/options/`, proof);
  expect(options.body.options).toMatchObject({ rpId: 'localhost', allowCredentials: [{ id: 'cred-1', type: 'public-key' }] });
  const forged = await post(`${A}/verify/u2f/`, { ...proof, response: { id: 'cred-1', type: 'public-key', response: {} } });
  expect(forged.status).toBe(400);
  expect(forged.body.code).toBe('u2f_invalid');
  expect((await post(`${A}/u2f/options/`, { ...proof, password: 'wrong' })).body.code).toBe('password_invalid');
});
