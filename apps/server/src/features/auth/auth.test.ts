import { createPublicKey } from 'node:crypto';
import { LoginSuccess } from '@latchkey/contracts';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type Harness, HUB_URL, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../demo/index.ts';

const LOGIN = '/api/v1/console/auth/login/';
const PASSWORD = '/api/v1/console/auth/verify/password/';
const OTP = '/api/v1/console/auth/verify/otp/';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());
// Each test starts under the brute-force limits (they have their own tests in security/limits.test.ts).
beforeEach(async () => {
  await h.db.query('delete from auth_limits');
});

/** Signs in up to the emailed code and returns it. */
async function requestCode(email: string, teamSlug = 'northwind'): Promise<string> {
  const res = await h.post(PASSWORD, { email, password: DEMO_PASSWORD, team_slug: teamSlug });
  expect(res.status).toBe(200);
  return h.waitForCode(email);
}

const otp = (email: string, code: string, teamSlug = 'northwind') =>
  h.post(OTP, { email, otp: code, password: DEMO_PASSWORD, team_slug: teamSlug });

/** A six-digit code that is not `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function latestCodeRow(email: string) {
  const [row] = await h.db.query<{ id: string; attempts: number; used_at: Date | null }>(
    `select c.id, c.attempts, c.used_at from email_codes c join users u on u.id = c.user_id
     where u.email = $1 order by c.created_at desc limit 1`,
    [email],
  );
  if (!row) throw new Error(`no code for ${email}`);
  return row;
}

describe('login (email check)', () => {
  test('trims and lowercases the email', async () => {
    const res = await h.post(LOGIN, { email: `  ${DEMO_ADMINS.superAdmin.toUpperCase()}  ` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: 'ok',
      team_slug: 'northwind',
      team_name: 'Northwind Traders',
      auth_type: 'password',
      is_sso_active: false,
      otp_sent: false,
      sso_configurations: [],
    });
  });

  test('an invalid email is invalid_input with the i18n key', async () => {
    const res = await h.post(LOGIN, { email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_input', description: 'loginpage.enter_valid_email' });
    expect((res.body as { issues: unknown[] }).issues[0]).toEqual({ path: 'email', message: 'loginpage.enter_valid_email' });
  });

  test('an empty (or blank) email asks for one', async () => {
    for (const email of ['', '   ']) {
      const res = await h.post(LOGIN, { email });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_input', description: 'please enter your email' });
      expect((res.body as { issues: unknown[] }).issues[0]).toEqual({ path: 'email', message: 'please enter your email' });
    }
  });

  test('an unknown email is email_notregistered', async () => {
    const res = await h.post(LOGIN, { email: 'nobody@northwind.example' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('email_notregistered');
  });

  test('an admin of two teams chooses one', async () => {
    const res = await h.post(LOGIN, { email: DEMO_ADMINS.twoTeams });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: 'select_team',
      teams: [
        { team_slug: 'northwind', team_name: 'Northwind Traders' },
        { team_slug: 'sam-family', team_name: 'The Okafor Family' },
      ],
    });
  });

  test('with team_slug, the chosen team is ok', async () => {
    const res = await h.post(LOGIN, { email: DEMO_ADMINS.twoTeams, team_slug: 'sam-family' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 'ok', team_slug: 'sam-family', team_name: 'The Okafor Family' });
  });

  test('a team the person does not administer is admin_not_found', async () => {
    for (const team_slug of ['sam-family', 'no-such-team']) {
      const res = await h.post(LOGIN, { email: DEMO_ADMINS.superAdmin, team_slug });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('admin_not_found');
    }
  });

  test('a registered person who administers no team is admin_not_found', async () => {
    await h.db.query(`insert into users (email, name) values ('former@northwind.example', 'Former Admin')`);
    const res = await h.post(LOGIN, { email: 'former@northwind.example' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('admin_not_found');
  });
});

describe('verify/password', () => {
  test('a wrong password is password_invalid and is recorded', async () => {
    const before = await h.db.query(`select id from security_events where kind = 'sign_in_failed'`);
    const res = await h.post(PASSWORD, { email: DEMO_ADMINS.admin, password: 'wrong-password', team_slug: 'northwind' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('password_invalid');
    const events = await h.db.query<{ email: string; detail: { reason: string }; team_id: string; ip: string }>(
      `select email, detail, team_id, ip from security_events where kind = 'sign_in_failed' order by id`,
    );
    expect(events).toHaveLength(before.length + 1);
    expect(events.at(-1)).toMatchObject({ email: DEMO_ADMINS.admin, detail: { reason: 'password_invalid' }, ip: '127.0.0.1' });
    // Mail leaves through the job queue: time enough for a mail that should not exist to arrive.
    await new Promise((r) => setTimeout(r, 200));
    expect(h.mail.some((m) => m.to.includes(DEMO_ADMINS.admin))).toBe(false);
  });

  test('an empty password is asked for', async () => {
    const res = await h.post(PASSWORD, { email: DEMO_ADMINS.admin, password: '', team_slug: 'northwind' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_input', description: 'please enter your password' });
  });

  test('the right password sends a six-digit code by email', async () => {
    const res = await h.post(PASSWORD, { email: DEMO_ADMINS.admin, password: DEMO_PASSWORD, team_slug: 'northwind' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 'otp_sent' });
    const mail = await h.smtp.waitFor(DEMO_ADMINS.admin);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.raw).toContain('Northwind Traders');
    expect(await h.waitForCode(DEMO_ADMINS.admin)).toMatch(/^\d{6}$/);
  });

  test('a password for a team the person does not administer is admin_not_found', async () => {
    const res = await h.post(PASSWORD, { email: DEMO_ADMINS.admin, password: DEMO_PASSWORD, team_slug: 'sam-family' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('admin_not_found');
  });
});

describe('verify/otp', () => {
  test('a wrong code is otp_invalid', async () => {
    const code = await requestCode(DEMO_ADMINS.superAdmin);
    const res = await otp(DEMO_ADMINS.superAdmin, otherCode(code));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('otp_invalid');
  });

  test('the right code signs in, with tokens, team and a Hub grant; it works once only', async () => {
    const code = await requestCode(DEMO_ADMINS.superAdmin);
    const res = await otp(DEMO_ADMINS.superAdmin, code);
    expect(res.status).toBe(200);
    const success = LoginSuccess.parse(res.body);
    expect(success.team_slug).toBe('northwind');
    expect(success.token.access.split('.')).toHaveLength(3);
    expect(success.token.refresh_token.length).toBeGreaterThanOrEqual(40);
    expect(success.token.expires_at).toBeGreaterThan(Date.now());
    expect(success.token.refresh_expires_at).toBeGreaterThan(success.token.expires_at);

    const aux = success.aux_code;
    expect(aux).not.toBeNull();
    if (!aux) return;
    expect(aux.server_url).toBe(HUB_URL);
    expect(aux.team_slug).toBe('northwind');
    expect(aux.expires_at).toBeGreaterThan(Date.now());
    expect(aux.expires_at).toBeLessThanOrEqual(Date.now() + 61_000);
    expect(decodeProtectedHeader(aux.access)).toEqual({ alg: 'EdDSA', typ: 'latchkey-grant+jwt', kid: 'demo-hub' });
    // Signed with the server's private key: only its public half verifies it.
    const { payload } = await jwtVerify(aux.access, createPublicKey(h.serverKey), { audience: 'latchkey-hub' });
    expect(payload).toMatchObject({ email: DEMO_ADMINS.superAdmin, team_slug: 'northwind', scopes: ['super_admin'] });
    // It names the console session and carries its absolute expiry, which the Hub session inherits.
    const [session] = await h.db.query<{ id: string; absolute_expires_at: Date }>(
      'select id, absolute_expires_at from sessions order by created_at desc limit 1',
    );
    expect(payload.sid).toBe(session?.id);
    expect(payload.session_exp).toBe(Math.floor((session?.absolute_expires_at.getTime() ?? 0) / 1000));

    const [event] = await h.db.query<{ n: number }>(
      `select count(*)::int as n from security_events where kind = 'sign_in' and email = $1`,
      [DEMO_ADMINS.superAdmin],
    );
    expect(event?.n).toBe(1);

    const again = await otp(DEMO_ADMINS.superAdmin, code);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('otp_invalid');
  });

  test('a family team with no Hub signs in without a Hub grant', async () => {
    const code = await requestCode(DEMO_ADMINS.twoTeams, 'sam-family');
    const res = await otp(DEMO_ADMINS.twoTeams, code, 'sam-family');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ team_slug: 'sam-family', aux_code: null });
  });

  test('a code for one team does not sign in to another', async () => {
    const code = await requestCode(DEMO_ADMINS.twoTeams, 'northwind');
    const res = await otp(DEMO_ADMINS.twoTeams, code, 'sam-family');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('otp_invalid');
  });

  test('only the newest code counts', async () => {
    const first = await requestCode(DEMO_ADMINS.integrator);
    const second = await requestCode(DEMO_ADMINS.integrator);
    if (first !== second) expect((await otp(DEMO_ADMINS.integrator, first)).body.code).toBe('otp_invalid');
    expect((await otp(DEMO_ADMINS.integrator, second)).status).toBe(200);
  });

  test('an expired code is otp_invalid', async () => {
    const code = await requestCode(DEMO_ADMINS.admin);
    const row = await latestCodeRow(DEMO_ADMINS.admin);
    await h.db.query(`update email_codes set expires_at = now() - interval '1 second' where id = $1`, [row.id]);
    const res = await otp(DEMO_ADMINS.admin, code);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('otp_invalid');
  });

  test('after five wrong codes even the right one fails', async () => {
    const code = await requestCode(DEMO_ADMINS.recoveryAgent);
    for (let i = 0; i < 5; i++) expect((await otp(DEMO_ADMINS.recoveryAgent, otherCode(code))).body.code).toBe('otp_invalid');
    const res = await otp(DEMO_ADMINS.recoveryAgent, code);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('otp_invalid');
  });

  test('four wrong codes still leave the right one usable', async () => {
    const code = await requestCode(DEMO_ADMINS.recoveryAgent);
    for (let i = 0; i < 4; i++) expect((await otp(DEMO_ADMINS.recoveryAgent, otherCode(code))).body.code).toBe('otp_invalid');
    expect((await otp(DEMO_ADMINS.recoveryAgent, code)).status).toBe(200);
  });

  test('parallel guesses cannot exceed the attempt limit', async () => {
    const code = await requestCode(DEMO_ADMINS.recoveryAgent);
    const wrong = otherCode(code);
    const replies = await Promise.all(Array.from({ length: 10 }, () => otp(DEMO_ADMINS.recoveryAgent, wrong)));
    // Each is refused: a wrong code, or (ten at once being more than the account's five password
    // checks in flight) the brute-force limit.
    for (const r of replies) expect(['otp_invalid', 'too_many_requests_msg']).toContain(r.body.code);
    // Every guess spends an attempt before it is compared: at most five were ever compared.
    expect((await latestCodeRow(DEMO_ADMINS.recoveryAgent)).attempts).toBeLessThanOrEqual(5);
  });

  test('the password is checked again with the code', async () => {
    const code = await requestCode(DEMO_ADMINS.admin);
    const res = await h.post(OTP, { email: DEMO_ADMINS.admin, otp: code, password: 'wrong', team_slug: 'northwind' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('password_invalid');
    // The code was not spent by that failure.
    expect((await otp(DEMO_ADMINS.admin, code)).status).toBe(200);
  });

  test('an account that signs in with codes only gets its code at the email step, and needs no password', async () => {
    await h.db.query(`insert into users (email, name, auth_type) values ('otto@northwind.example', 'Otto', 'otp')`);
    await h.db.query(
      `insert into team_admins (team_id, user_id, scopes)
       select t.id, u.id, '{admin}' from teams t, users u where t.slug = 'northwind' and u.email = 'otto@northwind.example'`,
    );
    const login = await h.post(LOGIN, { email: 'Otto@Northwind.example' });
    expect(login.body).toMatchObject({ code: 'ok', auth_type: 'otp', otp_sent: true });
    const code = await h.waitForCode('otto@northwind.example');
    const password = await h.post(PASSWORD, { email: 'otto@northwind.example', password: 'anything', team_slug: 'northwind' });
    expect(password.body.code).toBe('password_invalid');
    const res = await h.post(OTP, { email: 'otto@northwind.example', otp: code, team_slug: 'northwind' });
    expect(res.status).toBe(200);
    expect(LoginSuccess.parse(res.body).team_slug).toBe('northwind');
  });

  test('a code that is not six digits is invalid_input', async () => {
    const res = await otp(DEMO_ADMINS.admin, '12345');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_input', description: 'invalid or expired code entered' });
  });

  test('the access token names the session and the person', async () => {
    const success = await h.signIn(DEMO_ADMINS.integrator);
    const claims = decodeJwt(success.token.access);
    const [user] = await h.db.query<{ id: string }>('select id from users where email = $1', [DEMO_ADMINS.integrator]);
    expect(claims.sub).toBe(user?.id);
    const [session] = await h.db.query<{ id: string }>('select id from sessions where id = $1', [claims.sid]);
    expect(session).toBeDefined();
  });
});
