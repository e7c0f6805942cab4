import { LoginSuccess } from '@latchkey/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { buildServer } from '../../app.ts';
import { currentTotp } from '../../platform/totp.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, DEMO_PASSWORD, SECURITY_DEMO_ADMINS, seedSecurityDemo } from '../demo/index.ts';

const A = '/api/v1/console/auth';
const now = () => Math.floor(Date.now() / 1000);

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());
beforeEach(async () => {
  await h.db.query('delete from auth_limits');
});

const password = (email: string, pw = DEMO_PASSWORD) =>
  h.post(`${A}/verify/password/`, { email, password: pw, team_slug: 'northwind' });
const totpSignIn = (email: string, totp: string) =>
  h.post(`${A}/verify/totp/`, { email, password: DEMO_PASSWORD, team_slug: 'northwind', totp });
const backupSignIn = (email: string, recovery_code: string) =>
  h.post(`${A}/verify/recovery/code/`, { email, password: DEMO_PASSWORD, team_slug: 'northwind', recovery_code });

/** Signs in and turns the authenticator on; returns the secret and the backup codes. */
async function enableTotp(email: string) {
  const { token } = await h.signIn(email);
  const setup = await h.post<{ secret: string; otpauth_url: string }>(`${A}/totp/register/`, {}, token.access);
  expect(setup.status).toBe(200);
  expect(setup.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Latchkey:/);
  const done = await h.post<{ recovery_codes: string[] }>(
    `${A}/totp/register/verify/`,
    { totp: await currentTotp(setup.body.secret) },
    token.access,
  );
  expect(done.status).toBe(200);
  return { secret: setup.body.secret, codes: done.body.recovery_codes, access: token.access };
}

const events = async (email: string) =>
  (
    await h.db.query<{ kind: string; detail: { reason?: string; method?: string } }>(
      'select kind, detail from security_events where email = $1 order by id',
      [email],
    )
  ).map((e) => `${e.kind}:${e.detail.reason ?? e.detail.method ?? ''}`);

describe('brute-force limits', () => {
  test('five wrong passwords from one client lock that client out of the account for 15 minutes: even the right one is 429', async () => {
    const email = DEMO_ADMINS.integrator;
    for (let i = 0; i < 5; i++) expect((await password(email, 'wrong')).body.code).toBe('password_invalid');
    const locked = await password(email);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ code: 'too_many_requests_msg', description: 'Too many attempts. Try again in 15 minutes.' });
    expect(await events(email)).toContain('sign_in_failed:too_many_attempts:password');
    // The lock ends with its window.
    await h.db.query("update auth_limits set window_ends_at = now() - interval '1 second'");
    expect((await password(email)).body.code).toBe('otp_sent');
  });

  test('a right password does not count, nor wipe the wrong ones: five wrong in the window lock', async () => {
    const email = DEMO_ADMINS.admin;
    for (let i = 0; i < 4; i++) await password(email, 'wrong');
    expect((await password(email)).status).toBe(200);
    expect((await password(email, 'wrong')).body.code).toBe('password_invalid');
    expect((await password(email)).status).toBe(429);
  });

  test('one address guessing at many accounts is stopped at 50 failures', async () => {
    const emails = Object.values(DEMO_ADMINS);
    for (let i = 0; i < 50; i++) await password(emails[i % 4] as string, 'wrong');
    // Sam has had no wrong password at all: the address is what is over its limit.
    const res = await password(DEMO_ADMINS.twoTeams);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('too_many_requests_msg');
  });

  test('the counters are shared: a second server on the same database refuses too', async () => {
    const email = DEMO_ADMINS.recoveryAgent;
    for (let i = 0; i < 5; i++) await password(email, 'wrong');
    const other = await buildServer({ config: h.config, db: h.db });
    try {
      const res = await other.inject({
        method: 'POST',
        url: `${A}/verify/password/`,
        payload: { email, password: DEMO_PASSWORD, team_slug: 'northwind' },
      });
      expect(res.statusCode).toBe(429);
      expect(res.json().code).toBe('too_many_requests_msg');
    } finally {
      await other.close();
    }
  });

  test('emailed codes: past five wrong on the account the guessing client is slowed, across resent codes', async () => {
    const email = DEMO_ADMINS.admin;
    const guess = () => h.post(`${A}/verify/otp/`, { email, otp: '000000', password: DEMO_PASSWORD, team_slug: 'northwind' });
    expect((await password(email)).status).toBe(200);
    await h.waitForCode(email);
    for (let i = 0; i < 5; i++) expect((await guess()).body.code).toBe('otp_invalid');
    // A new code does not reset the count: the sixth wrong one starts the delay…
    expect((await password(email)).status).toBe(200);
    const code = await h.waitForCode(email);
    expect((await guess()).body.code).toBe('otp_invalid');
    // …so even the right code waits, from this client, until the "not before" passes.
    const res = await h.post(`${A}/verify/otp/`, { email, otp: code, password: DEMO_PASSWORD, team_slug: 'northwind' });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  test('emailed codes: ten wrong per account and client in 15 minutes', async () => {
    const email = DEMO_ADMINS.admin;
    // Without the delay (its hold removed each time), the pair counter alone stops the eleventh.
    const clearDelay = () => h.db.query("delete from auth_limits where key like 'email_code:delay:%'");
    for (let round = 0; round < 2; round++) {
      expect((await password(email)).status).toBe(200);
      await h.waitForCode(email);
      for (let i = 0; i < 5; i++) {
        await clearDelay();
        const res = await h.post(`${A}/verify/otp/`, { email, otp: '000000', password: DEMO_PASSWORD, team_slug: 'northwind' });
        expect(res.body.code).toBe('otp_invalid');
      }
    }
    expect((await password(email)).status).toBe(200);
    const code = await h.waitForCode(email);
    await clearDelay();
    const res = await h.post(`${A}/verify/otp/`, { email, otp: code, password: DEMO_PASSWORD, team_slug: 'northwind' });
    expect(res.status).toBe(429);
  });

  test('at most five unused code emails per account in 15 minutes; a code that signs in gives its mail back', async () => {
    const email = DEMO_ADMINS.superAdmin;
    for (let i = 0; i < 5; i++) await h.signIn(email);
    for (let i = 0; i < 5; i++) expect((await password(email)).status).toBe(200);
    expect((await password(email)).status).toBe(429);
  });
});

describe('authenticator app (TOTP)', () => {
  let secret = '';
  let codes: string[] = [];
  const email = DEMO_ADMINS.superAdmin;

  test('set up: register returns the secret once, verify with its first code returns ten backup codes', async () => {
    ({ secret, codes } = await enableTotp(email));
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    // Neither the secret nor the codes are stored in the clear.
    const [row] = await h.db.query<{ totp_secret: string }>('select totp_secret from users where email = $1', [email]);
    expect(row?.totp_secret).not.toContain(secret);
    const stored = await h.db.query<{ code_hash: string }>('select code_hash from recovery_codes');
    for (const c of codes) expect(stored.map((s) => s.code_hash)).not.toContain(c);
  });

  test('the password step now asks for the authenticator and sends no email', async () => {
    const before = h.mail.length;
    const res = await password(email);
    expect(res.body).toEqual({ code: 'totp_required' });
    await new Promise((r) => setTimeout(r, 200));
    expect(h.mail.length).toBe(before);
    // An emailed code is no way around the authenticator.
    const otp = await h.post(`${A}/verify/otp/`, { email, otp: '123456', password: DEMO_PASSWORD, team_slug: 'northwind' });
    expect(otp.body.code).toBe('otp_invalid');
  });

  test('a code signs in once: the same code again is refused (replay), and so is an older one', async () => {
    // The set-up used the current step: the next one is still within the accepted drift.
    const next = await currentTotp(secret, now() + 30);
    const ok = await totpSignIn(email, next);
    expect(ok.status).toBe(200);
    LoginSuccess.parse(ok.body);
    const replay = await totpSignIn(email, next);
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('totp_invalid');
    expect((await totpSignIn(email, await currentTotp(secret))).body.code).toBe('totp_invalid');
  });

  test('a wrong password is checked before the code', async () => {
    const res = await h.post(`${A}/verify/totp/`, { email, password: 'nope', team_slug: 'northwind', totp: '123456' });
    expect(res.body.code).toBe('password_invalid');
  });

  test('five wrong authenticator codes lock it', async () => {
    for (let i = 0; i < 5; i++) expect((await totpSignIn(email, '000000')).body.code).toBe('totp_invalid');
    expect((await totpSignIn(email, '000000')).status).toBe(429);
  });

  test('a backup code signs in once; case, spaces and the dash do not matter', async () => {
    const code = codes[0] as string;
    const ok = await backupSignIn(email, `  ${code.toUpperCase().replace('-', ' ')} `);
    expect(ok.status).toBe(200);
    const again = await backupSignIn(email, code);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'code_invalid' });
    expect((await backupSignIn(email, '')).body).toMatchObject({ code: 'invalid_input', description: 'this field is required' });
  });

  test('account security summary', async () => {
    const { token } = LoginSuccess.parse((await backupSignIn(email, codes[1] as string)).body);
    const res = await h.post(`${A}/type/`, {}, token.access);
    expect(res.body).toEqual({
      auth_type: 'password',
      has_password: true,
      totp_enabled: true,
      recovery_codes_left: 8,
      security_keys: 0,
    });
    // Register again is refused while one is set up; codes-only sign-in too.
    expect((await h.post(`${A}/totp/register/`, {}, token.access)).body.code).toBe('totp_already_enabled');
    const otp = await h.post(`${A}/type/update/`, { auth_type: 'otp', password: DEMO_PASSWORD }, token.access);
    expect(otp.body.code).toBe('totp_already_enabled');
  });

  test('verify/otp takes recovery_code (spec §7): the admin who lost the authenticator signs in, each code once', async () => {
    const viaOtp = (recovery_code: string, pw = DEMO_PASSWORD) =>
      h.post(`${A}/verify/otp/`, { email, password: pw, team_slug: 'northwind', recovery_code });
    const code = codes[2] as string;
    expect((await viaOtp(code, 'wrong-password')).body.code).toBe('password_invalid');
    const ok = await viaOtp(code);
    expect(ok.status).toBe(200);
    expect(LoginSuccess.parse(ok.body).team_slug).toBe('northwind');
    const again = await viaOtp(code);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'code_invalid' });
    // A code spent on verify/otp is spent on verify/recovery/code too (one store).
    expect((await backupSignIn(email, code)).body.code).toBe('code_invalid');
    expect((await viaOtp('not-a-code')).body.code).toBe('code_invalid');
    // Neither an emailed code nor a backup code: refused as input.
    const neither = await h.post(`${A}/verify/otp/`, { email, password: DEMO_PASSWORD, team_slug: 'northwind' });
    expect(neither.body).toMatchObject({ code: 'invalid_input' });
    // An email code is still refused for this admin: the authenticator or a backup code only.
    expect(
      (await h.post(`${A}/verify/otp/`, { email, password: DEMO_PASSWORD, team_slug: 'northwind', otp: '123456' })).body.code,
    ).toBe('otp_invalid');
  });

  test('every success and failure is a security event', async () => {
    const kinds = await events(email);
    expect(kinds).toContain('totp_enabled:');
    expect(kinds).toContain('sign_in:password_totp');
    expect(kinds).toContain('sign_in:password_backup_code');
    expect(kinds).toContain('sign_in_failed:totp_invalid');
    expect(kinds).toContain('sign_in_failed:code_invalid');
    expect(kinds).toContain('sign_in_failed:otp_not_allowed');
    expect(kinds).toContain('sign_in_failed:too_many_attempts:totp');
  });
});

describe('change the authenticator, regenerate backup codes', () => {
  test('both need a code from the current authenticator; old backup codes stop working', async () => {
    const email = DEMO_ADMINS.twoTeams;
    const { secret, codes, access } = await enableTotp(email);
    const wrong = await h.post(`${A}/regenerate/recovery/codes/`, { totp: '000000' }, access);
    expect(wrong.body.code).toBe('totp_invalid');
    const regen = await h.post<{ recovery_codes: string[] }>(
      `${A}/regenerate/recovery/codes/`,
      { totp: await currentTotp(secret, now() + 30) },
      access,
    );
    expect(regen.status).toBe(200);
    expect(regen.body.recovery_codes).toHaveLength(10);
    expect((await backupSignIn(email, codes[0] as string)).body.code).toBe('code_invalid');
    expect((await backupSignIn(email, regen.body.recovery_codes[0] as string)).status).toBe(200);

    // Change: the current authenticator's code (the next steps are used up), then the new one's.
    await h.db.query('update users set totp_last_step = totp_last_step - 2 where email = $1', [email]);
    const change = await h.post<{ secret: string }>(`${A}/totp/change/`, { totp: await currentTotp(secret) }, access);
    expect(change.status).toBe(200);
    expect(change.body.secret).not.toBe(secret);
    const bad = await h.post(`${A}/totp/change/verify/`, { totp: await currentTotp(secret) }, access);
    expect(bad.body.code).toBe('totp_invalid');
    const good = await h.post(`${A}/totp/change/verify/`, { totp: await currentTotp(change.body.secret) }, access);
    expect(good.body).toEqual({ code: 'totp_changed' });
    expect((await totpSignIn(email, await currentTotp(change.body.secret, now() + 30))).status).toBe(200);
  });
});

describe('password and auth type', () => {
  test('change password: the old one is checked, the new one must be 12+ characters, other sessions end', async () => {
    const email = DEMO_ADMINS.integrator;
    const first = await h.signIn(email);
    const second = await h.signIn(email);
    const wrong = await h.post(
      `${A}/change/password/`,
      { old_password: 'x', new_password: 'a-long-new-password' },
      first.token.access,
    );
    expect(wrong.body.code).toBe('password_invalid');
    const short = await h.post(
      `${A}/change/password/`,
      { old_password: DEMO_PASSWORD, new_password: 'short' },
      first.token.access,
    );
    expect(short.body).toMatchObject({ code: 'invalid_input', description: 'settingspage.pwd_too_short' });
    const ok = await h.post(
      `${A}/change/password/`,
      { old_password: DEMO_PASSWORD, new_password: 'a-long-new-password' },
      first.token.access,
    );
    expect(ok.body).toEqual({ code: 'password_changed' });
    expect((await h.post('/api/v1/team/info/', {}, second.token.access)).status).toBe(401);
    expect((await h.post('/api/v1/team/info/', {}, first.token.access)).status).toBe(200);
    expect((await password(email)).body.code).toBe('password_invalid');
    expect((await password(email, 'a-long-new-password')).body.code).toBe('otp_sent');
    expect(await events(email)).toContain('password_changed:');
  });

  test('auth type: emailed codes only, with the password as proof; then the email step sends the code', async () => {
    const email = DEMO_ADMINS.recoveryAgent;
    const { token } = await h.signIn(email);
    expect((await h.post(`${A}/type/update/`, { auth_type: 'otp', password: 'bad' }, token.access)).body.code).toBe(
      'password_invalid',
    );
    const res = await h.post(`${A}/type/update/`, { auth_type: 'otp', password: DEMO_PASSWORD }, token.access);
    expect(res.body).toEqual({ code: 'updated', auth_type: 'otp' });
    const login = await h.post(`${A}/login/`, { email, team_slug: 'northwind' });
    expect(login.body).toMatchObject({ auth_type: 'otp', otp_sent: true });
    expect(await h.waitForCode(email)).toMatch(/^\d{6}$/);
    await h.post(`${A}/type/update/`, { auth_type: 'password', password: DEMO_PASSWORD }, token.access);
  });

  test('set a first password: only without one, and both entries must match', async () => {
    const email = DEMO_ADMINS.admin;
    const { token } = await h.signIn(email);
    expect(
      (
        await h.post(
          `${A}/set/first/password/`,
          { password: 'a-long-password-1', confirm_password: 'a-long-password-1' },
          token.access,
        )
      ).body.code,
    ).toBe('invalid_input');
    await h.db.query('update users set password_hash = null where email = $1', [email]);
    const mismatch = await h.post(
      `${A}/set/first/password/`,
      { password: 'a-long-password-1', confirm_password: 'a-long-password-2' },
      token.access,
    );
    expect(mismatch.body.code).toBe('password_mismatch');
    const ok = await h.post(
      `${A}/set/first/password/`,
      { password: 'a-long-password-1', confirm_password: 'a-long-password-1' },
      token.access,
    );
    expect(ok.body).toEqual({ code: 'password_set' });
    expect((await password(email, 'a-long-password-1')).body.code).toBe('otp_sent');
  });

  test('account calls need a session', async () => {
    expect((await h.post(`${A}/type/`, {})).status).toBe(401);
    expect((await h.post(`${A}/totp/register/`, {})).status).toBe(401);
  });
});

describe('the account-security demo admins', () => {
  test('Tess signs in with a password, Nadia with emailed codes only and no password; seeding twice adds nothing', async () => {
    await seedSecurityDemo(h.db);
    await seedSecurityDemo(h.db);
    const [row] = await h.db.query<{ n: number }>(
      'select count(*)::int as n from team_admins ta join users u on u.id = ta.user_id where u.email = any($1)',
      [Object.values(SECURITY_DEMO_ADMINS)],
    );
    expect(row?.n).toBe(Object.keys(SECURITY_DEMO_ADMINS).length);
    expect((await password(SECURITY_DEMO_ADMINS.tess)).body.code).toBe('otp_sent');
    const login = await h.post(`${A}/login/`, { email: SECURITY_DEMO_ADMINS.nadia });
    expect(login.body).toMatchObject({ auth_type: 'otp', otp_sent: true });
    const otp = await h.waitForCode(SECURITY_DEMO_ADMINS.nadia);
    const done = await h.post(`${A}/verify/otp/`, { email: SECURITY_DEMO_ADMINS.nadia, otp, team_slug: 'northwind' });
    const { token } = LoginSuccess.parse(done.body);
    expect((await h.post(`${A}/type/`, {}, token.access)).body).toEqual({
      auth_type: 'otp',
      has_password: false,
      totp_enabled: false,
      recovery_codes_left: 0,
      security_keys: 0,
    });
    expect(await events(SECURITY_DEMO_ADMINS.nadia)).toEqual(['sign_in:email_code']);
  });
});
