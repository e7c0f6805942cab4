import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildServer } from '../../app.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../demo/index.ts';

const A = '/api/v1/console/auth';
// A hostile page's origin: links never follow it (security finding 4).
const ORIGIN = 'https://evil.example';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** Asks for a link with an Origin header that must not matter. */
const requestReset = async (email: string) => {
  const res = await fetch(`${h.url}${A}/password/reset/request/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: JSON.stringify({ email }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** The link in the newest mail to `email` (quoted-printable undone). */
async function resetLink(email: string): Promise<URL> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mail = h.mail.filter((m) => m.to.includes(email)).at(-1);
    const raw = mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = raw && /(https?:\/\/\S+password_request=[\w%-]+)/.exec(raw)?.[1];
    if (link) return new URL(link);
    if (Date.now() > deadline) throw new Error(`no reset mail to ${email}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
const tokenOf = (link: URL) => new URLSearchParams(link.hash.split('?')[1]).get('password_request') ?? '';

describe('password reset by email link', () => {
  test('the link points at the console, validates, sets the password once, and ends every session', async () => {
    const email = DEMO_ADMINS.integrator;
    const session = await h.signIn(email);
    expect((await requestReset(email)).body).toEqual({ code: 'reset_requested' });
    const link = await resetLink(email);
    expect(`${link.origin}${link.pathname}${link.hash.split('?')[0]}`).toBe(`${h.url}/#/reset-password`);
    const token = tokenOf(link);
    // The token is stored as a hash only.
    const rows = await h.db.query<{ token_hash: string }>('select token_hash from password_requests');
    expect(rows.map((r) => r.token_hash)).not.toContain(token);

    expect((await h.post(`${A}/validate/password/request/`, { password_request: token })).body).toEqual({ code: 'valid', email });
    const mismatch = await h.post(`${A}/change/password/request/`, {
      password_request: token,
      password: 'reset-password-1234',
      confirm_password: 'reset-password-9999',
    });
    expect(mismatch.body.code).toBe('password_mismatch');
    const short = await h.post(`${A}/change/password/request/`, {
      password_request: token,
      password: 'x',
      confirm_password: 'x',
    });
    expect(short.body).toMatchObject({ code: 'invalid_input', description: 'settingspage.pwd_too_short' });
    const ok = await h.post(`${A}/change/password/request/`, {
      password_request: token,
      password: 'reset-password-1234',
      confirm_password: 'reset-password-1234',
    });
    expect(ok.body).toEqual({ code: 'password_reset' });
    // Spec §7: the token in 'Authorization: Basic {token}' (here already used: refused like any spent link).
    const basic = await fetch(`${h.url}${A}/change/password/request/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${token}` },
      body: JSON.stringify({ password: 'reset-password-5678', confirm_password: 'reset-password-5678' }),
    });
    expect(basic.status).toBe(400);
    expect(((await basic.json()) as { code: string }).code).toBe('invalid_link');
    // Used once: both calls now say the link is invalid.
    const again = await h.post(`${A}/change/password/request/`, {
      password_request: token,
      password: 'reset-password-5678',
      confirm_password: 'reset-password-5678',
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_link');
    expect((await h.post(`${A}/validate/password/request/`, { password_request: token })).body.code).toBe('invalid_link');
    expect((await h.post('/api/v1/team/info/', {}, session.token.access)).status).toBe(401);
    expect((await h.post(`${A}/verify/password/`, { email, password: DEMO_PASSWORD, team_slug: 'northwind' })).body.code).toBe(
      'password_invalid',
    );
    expect(
      (await h.post(`${A}/verify/password/`, { email, password: 'reset-password-1234', team_slug: 'northwind' })).body.code,
    ).toBe('otp_sent');
  });

  test('an expired link, and one replaced by a newer link, are invalid', async () => {
    const email = DEMO_ADMINS.recoveryAgent;
    await requestReset(email);
    const first = tokenOf(await resetLink(email));
    h.mail.length = 0;
    await requestReset(email);
    const second = tokenOf(await resetLink(email));
    expect((await h.post(`${A}/validate/password/request/`, { password_request: first })).body.code).toBe('invalid_link');
    expect((await h.post(`${A}/validate/password/request/`, { password_request: second })).body.code).toBe('valid');
    await h.db.query("update password_requests set expires_at = now() - interval '1 second'");
    expect((await h.post(`${A}/validate/password/request/`, { password_request: second })).body.code).toBe('invalid_link');
  });

  test("the token in 'Authorization: Basic {token}' (spec §7); a different token in the body is no link", async () => {
    const email = DEMO_ADMINS.superAdmin;
    await requestReset(email);
    const token = tokenOf(await resetLink(email));
    const change = (headers: Record<string, string>, body: Record<string, unknown>) =>
      fetch(`${h.url}${A}/change/password/request/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ password: 'basic-reset-1234', confirm_password: 'basic-reset-1234', ...body }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    const mismatch = await change({ authorization: `Basic ${token}` }, { password_request: `${token.slice(0, -1)}x` });
    expect(mismatch).toMatchObject({ status: 400, body: { code: 'invalid_link' } });
    const none = await change({}, {});
    expect(none).toMatchObject({ status: 400, body: { code: 'invalid_link' } });
    const ok = await change({ authorization: `Basic ${token}` }, {});
    expect(ok).toMatchObject({ status: 200, body: { code: 'password_reset' } });
    expect(
      (await h.post(`${A}/verify/password/`, { email, password: 'basic-reset-1234', team_slug: 'northwind' })).body.code,
    ).toBe('otp_sent');
    // The sign-in code's mail leaves before the next test counts mail.
    await h.mailSent();
  });

  test('an unknown email gets the same reply and no mail', async () => {
    const before = h.mail.length;
    expect((await requestReset('nobody@northwind.example')).body).toEqual({ code: 'reset_requested' });
    await new Promise((r) => setTimeout(r, 200));
    expect(h.mail.length).toBe(before);
    const [event] = await h.db.query<{ kind: string }>(
      "select kind from security_events where email = 'nobody@northwind.example' order by id desc limit 1",
    );
    expect(event?.kind).toBe('password_reset_refused');
  });

  test('in production without PUBLIC_URL no link is sent, whatever the request says', async () => {
    const before = h.mail.length;
    const production = await buildServer({ config: { ...h.config, NODE_ENV: 'production' }, db: h.db });
    try {
      const res = await production.inject({
        method: 'POST',
        url: `${A}/password/reset/request/`,
        headers: { origin: 'https://console.northwind.example', host: 'console.northwind.example' },
        payload: { email: DEMO_ADMINS.admin },
      });
      expect(res.json()).toEqual({ code: 'reset_requested' });
    } finally {
      await production.close();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(h.mail.length).toBe(before);
    const [event] = await h.db.query<{ detail: { reason: string } }>(
      "select detail from security_events where kind = 'password_reset_refused' order by id desc limit 1",
    );
    expect(event?.detail.reason).toBe('no_public_url');
  });

  test('with PUBLIC_URL the link is built from it alone', async () => {
    await h.db.query('delete from auth_limits');
    // Only the mail this request sends: queued mail of earlier tests may still be arriving.
    await h.mailSent();
    h.mail.length = 0;
    const configured = await buildServer({ config: { ...h.config, PUBLIC_URL: 'https://console.northwind.example/' }, db: h.db });
    try {
      await configured.inject({
        method: 'POST',
        url: `${A}/password/reset/request/`,
        headers: { origin: ORIGIN },
        payload: { email: DEMO_ADMINS.recoveryAgent },
      });
    } finally {
      await configured.close();
    }
    const link = await resetLink(DEMO_ADMINS.recoveryAgent);
    expect(`${link.origin}${link.pathname}${link.hash.split('?')[0]}`).toBe('https://console.northwind.example/#/reset-password');
  });

  test('reset mails share the five-per-15-minutes mail limit', async () => {
    await h.db.query('delete from auth_limits');
    for (let i = 0; i < 5; i++) expect((await requestReset(DEMO_ADMINS.twoTeams)).status).toBe(200);
    expect((await requestReset(DEMO_ADMINS.twoTeams)).status).toBe(429);
  });
});
