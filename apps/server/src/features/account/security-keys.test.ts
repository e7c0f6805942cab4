import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../demo/index.ts';

const A = '/api/v1/console/auth';
// The page's Origin is ignored: the relying party comes from configuration (here the listening
// address, a loopback one, hence localhost).
const ORIGIN = 'https://evil.example';

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

describe('the admin’s own keys: list, rename, remove', () => {
  // Added `minutesAgo`: two keys added in one millisecond would tie on created_at (the list's order).
  const keyOf = async (email: string, credentialId: string, minutesAgo = 0) => {
    const [row] = await h.db.query<{ id: string }>(
      `insert into security_keys (user_id, credential_id, public_key, name, created_at)
       select id, $2, 'AAAA', 'YubiKey', now() - make_interval(mins => $3) from users where email = $1 returning id`,
      [email, credentialId, minutesAgo],
    );
    return row?.id as string;
  };

  test('lists only the caller’s keys, without key material; renames and removes (password asked) only their own', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.superAdmin);
    const access = token.access;
    const mine = await keyOf(DEMO_ADMINS.superAdmin, 'alex-key-1', 2);
    const second = await keyOf(DEMO_ADMINS.superAdmin, 'alex-key-2', 1);
    const theirs = await keyOf(DEMO_ADMINS.recoveryAgent, 'rory-key-1');

    const list = await post(`${A}/u2f/keys/`, {}, access);
    expect(list.status).toBe(200);
    const keys = list.body.keys as { id: string; name: string; last_used_at: string | null }[];
    expect(keys.map((k) => k.id)).toEqual([mine, second]);
    expect(keys[0]).toEqual({ id: mine, name: 'YubiKey', created_at: expect.any(String), last_used_at: null });
    expect(JSON.stringify(list.body)).not.toContain('AAAA');

    expect((await post(`${A}/u2f/keys/rename/`, { id: mine, name: '  Desk key  ' }, access)).body).toEqual({
      code: 'security_key_renamed',
    });
    const renamed = await h.db.query<{ name: string }>('select name from security_keys where id = $1', [mine]);
    expect(renamed[0]?.name).toBe('Desk key');
    const blank = await post(`${A}/u2f/keys/rename/`, { id: mine, name: '   ' }, access);
    expect(blank.status).toBe(400);
    expect(blank.body.issues).toEqual([{ path: 'name', message: 'this field is required' }]);
    expect((await post(`${A}/u2f/keys/rename/`, { id: mine, name: 'x'.repeat(61) }, access)).status).toBe(400);
    const other = await post(`${A}/u2f/keys/rename/`, { id: theirs, name: 'Mine now' }, access);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('not_found');
    expect((await post(`${A}/u2f/keys/rename/`, { id: 'not-a-uuid', name: 'x' }, access)).status).toBe(400);

    const wrong = await post(`${A}/u2f/keys/remove/`, { id: mine, password: 'wrong-password' }, access);
    expect(wrong.body.code).toBe('password_invalid');
    expect((await post(`${A}/u2f/keys/remove/`, { id: theirs, password: DEMO_PASSWORD }, access)).status).toBe(404);
    const removed = await post(`${A}/u2f/keys/remove/`, { id: mine, password: DEMO_PASSWORD }, access);
    expect(removed.body).toEqual({ code: 'security_key_removed' });
    const left = await post(`${A}/u2f/keys/`, {}, access);
    expect((left.body.keys as { id: string }[]).map((k) => k.id)).toEqual([second]);
    expect((await h.db.query('select 1 from security_keys where id = $1', [theirs])).length).toBe(1);

    const events = await h.db.query<{ kind: string }>(
      "select kind from security_events where kind like 'security_key_%' and email = $1 order by id",
      [DEMO_ADMINS.superAdmin],
    );
    expect(events.map((e) => e.kind)).toEqual(['security_key_renamed', 'security_key_removed']);
    await h.db.query('delete from security_keys where id = any($1)', [[second, theirs]]);
  });

  test('without a session the calls are 401', async () => {
    for (const path of ['u2f/keys/', 'u2f/keys/rename/', 'u2f/keys/remove/']) {
      expect((await post(`${A}/${path}`, {})).status).toBe(401);
    }
  });
});
