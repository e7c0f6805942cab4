import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../demo/index.ts';

/** Attacks of the security review (findings 4, 6, 8, 10), each now refused. */

const A = '/api/v1/console/auth';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());
beforeEach(async () => {
  await h.db.query('delete from auth_limits');
});

/** A call from another client address (the server sees `remoteAddress` as the client). */
async function from(ip: string, path: string, payload: unknown, headers: Record<string, string> = {}) {
  const res = await h.app.inject({ method: 'POST', url: path, payload: payload as object, remoteAddress: ip, headers });
  return { status: res.statusCode, headers: res.headers, body: res.json() as Record<string, unknown> };
}
const passwordFrom = (ip: string, email: string, password: string) =>
  from(ip, `${A}/verify/password/`, { email, password, team_slug: 'northwind' });

async function linkInMail(email: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mail = h.mail.filter((m) => m.to.includes(email)).at(-1);
    const raw = mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = raw && pattern.exec(raw)?.[1];
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`no link mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('finding 4: links only from configuration', () => {
  test('a reset asked with a hostile Origin and Host mails a link to the server’s own address, not the attacker’s', async () => {
    const email = DEMO_ADMINS.integrator;
    const res = await fetch(`${h.url}${A}/password/reset/request/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(200);
    const link = await linkInMail(email, /(https?:\/\/\S+password_request=[\w%-]+)/);
    expect(link.startsWith(`${h.url}/#/reset-password?`)).toBe(true);
    expect(link).not.toContain('evil');
  });

  test('an onboarding invitation asked with a hostile Origin links to the server’s own address', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.superAdmin);
    const email = 'new-admin-origin@northwind.example';
    const res = await fetch(`${h.url}/organization/admin/user/add/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', authorization: `Bearer ${token.access}` },
      body: JSON.stringify({ action: 'add_admin', email, scopes: ['admin'] }),
    });
    expect(res.status).toBe(200);
    const link = await linkInMail(email, /(https?:\/\/\S+email-verification\/[\w%-]+)/);
    expect(link.startsWith(`${h.url}/#/email-verification/`)).toBe(true);
  });
});

describe('finding 6: a lockout that cannot be used against the admin', () => {
  test('five wrong passwords from an attacker stop the attacker only: the admin signs in from their own client', async () => {
    const email = DEMO_ADMINS.integrator;
    for (let i = 0; i < 5; i++) expect((await passwordFrom('10.6.0.1', email, 'wrong')).body.code).toBe('password_invalid');
    const attacker = await passwordFrom('10.6.0.1', email, DEMO_PASSWORD);
    expect(attacker.status).toBe(429);
    expect(attacker.body.code).toBe('too_many_requests_msg');
    expect(Number(attacker.headers['retry-after'])).toBeGreaterThan(0);
    // The real admin, from a client that has not failed: password and emailed code still work.
    const session = await h.signIn(email);
    expect(session.token.access).toBeTruthy();
  });

  test('progressive delay: past five failures on the account, a client that failed waits (429 + Retry-After); a fresh one does not', async () => {
    const email = DEMO_ADMINS.admin;
    for (let i = 0; i < 5; i++) await passwordFrom(`10.6.1.${i}`, email, 'wrong');
    // The sixth and seventh failures set a "not before" of 1 s, then 2 s.
    expect((await passwordFrom('10.6.1.10', email, 'wrong')).body.code).toBe('password_invalid');
    expect((await passwordFrom('10.6.1.11', email, 'wrong')).body.code).toBe('password_invalid');
    const delayed = await passwordFrom('10.6.1.11', email, DEMO_PASSWORD);
    expect(delayed.status).toBe(429);
    expect(Number(delayed.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(delayed.headers['retry-after'])).toBeLessThanOrEqual(2);
    // Not slept in the request: the refusal is immediate, and a client that never failed goes on.
    expect((await passwordFrom('10.6.1.99', email, DEMO_PASSWORD)).body.code).toBe('otp_sent');
    // The delay ends by itself.
    await new Promise((r) => setTimeout(r, 2100));
    expect((await passwordFrom('10.6.1.11', email, DEMO_PASSWORD)).body.code).toBe('otp_sent');
  });

  test('a forged X-Forwarded-For does not make a new client (TRUST_PROXY is off): the sixth guess is still refused', async () => {
    const email = DEMO_ADMINS.twoTeams;
    for (let i = 0; i < 5; i++) {
      const res = await from(
        '10.6.3.1',
        `${A}/verify/password/`,
        { email, password: 'wrong', team_slug: 'northwind' },
        {
          'x-forwarded-for': `198.51.100.${i}`,
        },
      );
      expect(res.body.code).toBe('password_invalid');
    }
    const sixth = await from(
      '10.6.3.1',
      `${A}/verify/password/`,
      { email, password: DEMO_PASSWORD, team_slug: 'northwind' },
      {
        'x-forwarded-for': '198.51.100.77',
      },
    );
    expect(sixth.status).toBe(429);
  });

  test('ASVS 2.2.1: at most 100 failed passwords per hour per account, from any number of clients', async () => {
    const email = DEMO_ADMINS.recoveryAgent;
    for (let i = 0; i < 100; i++) {
      expect((await passwordFrom(`10.7.${Math.floor(i / 200)}.${i % 200}`, email, 'wrong')).body.code).toBe('password_invalid');
    }
    const capped = await passwordFrom('10.7.9.9', email, 'wrong');
    expect(capped.status).toBe(429);
    const [row] = await h.db.query<{ count: number }>("select count from auth_limits where key like 'password:account:%'");
    expect(row?.count).toBe(101);
  });
});

describe('finding 8: one absolute end per session', () => {
  test('a console session minted from the family app’s session ends when its parent does, however often it is chained', async () => {
    const parent = await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family');
    // The parent has ten minutes left.
    await h.db.query(
      `update sessions set absolute_expires_at = now() + interval '10 minutes'
       where id = (select id from sessions order by created_at desc limit 1)`,
    );
    const [parentRow] = await h.db.query<{ absolute_expires_at: Date }>(
      'select absolute_expires_at from sessions order by created_at desc limit 1',
    );
    const parentEnd = parentRow?.absolute_expires_at.getTime() as number;
    let access = parent.token.access;
    for (let hop = 0; hop < 2; hop++) {
      const minted = await h.post<{ token: string }>('/api/v1/app/console/login/token/', {}, access);
      expect(minted.status).toBe(200);
      const res = await fetch(`${h.url}${A}/app/login/verify/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${minted.body.token}` },
        body: JSON.stringify({ device: { type: 'browser' } }),
      });
      const child = (await res.json()) as { token: { access: string; refresh_expires_at: number } };
      expect(res.status).toBe(200);
      expect(child.token.refresh_expires_at).toBeLessThanOrEqual(parentEnd);
      const [row] = await h.db.query<{ absolute_expires_at: Date }>(
        'select absolute_expires_at from sessions order by created_at desc limit 1',
      );
      expect(row?.absolute_expires_at.getTime()).toBeLessThanOrEqual(parentEnd);
      access = child.token.access;
    }
  });
});

describe('finding 10: smaller findings', () => {
  test('every API reply, tokens and errors alike, is Cache-Control: no-store', async () => {
    const email = DEMO_ADMINS.superAdmin;
    const { token } = await h.signIn(email);
    const refreshed = await h.postForm('/oauth/refresh/token/', {
      client_id: 'console',
      grant_type: 'refresh_token',
      refresh_token: token.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('cache-control')).toBe('no-store');
    const members = await h.post('/api/v1/team/admin/members/', {}, token.access);
    expect(members.headers.get('cache-control')).toBe('no-store');
    const refused = await h.post('/api/v1/team/admin/members/', {});
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  test('bodies are JSON: a form or text/plain post (a cross-site form) is refused with 415; the OAuth refresh form still works', async () => {
    const form = await h.postForm(`${A}/login/`, { email: DEMO_ADMINS.admin, team_slug: 'northwind' });
    expect(form.status).toBe(415);
    const text = await fetch(`${h.url}${A}/password/reset/request/`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ email: DEMO_ADMINS.admin }),
    });
    expect(text.status).toBe(415);
    const { token } = await h.signIn(DEMO_ADMINS.admin);
    const formAdd = await fetch(`${h.url}/organization/admin/user/add/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token.access}` },
      body: new URLSearchParams({ action: 'add_admin', email: 'csrf@northwind.example', scopes: 'super_admin' }),
    });
    expect(formAdd.status).toBe(415);
  });

  test('one client cannot enumerate accounts: after 20 unknown emails even a known one is 429, other clients go on', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await from('10.10.0.1', `${A}/login/`, { email: `probe${i}@northwind.example` });
      expect(res.body.code).toBe('email_notregistered');
    }
    const known = await from('10.10.0.1', `${A}/login/`, { email: DEMO_ADMINS.admin, team_slug: 'northwind' });
    expect(known.status).toBe(429);
    const unknown = await from('10.10.0.1', `${A}/login/`, { email: 'probe-more@northwind.example' });
    expect(unknown.status).toBe(429);
    expect((await from('10.10.0.2', `${A}/login/`, { email: DEMO_ADMINS.admin, team_slug: 'northwind' })).status).toBe(200);
  });

  test('CSP connect-src names the console and the configured Hubs only, and follows a Hub being set up or removed', async () => {
    const csp = async () => (await fetch(`${h.url}/healthz`)).headers.get('content-security-policy') ?? '';
    const connect = (policy: string) => /connect-src ([^;]*)/.exec(policy)?.[1]?.split(' ') ?? [];
    expect(connect(await csp())).not.toContain('https:');
    const [team] = await h.db.query<{ id: string }>("select id from teams where slug = 'northwind'");
    await h.db.query(
      `insert into hubs (team_id, server_url, credential_id, hub_key, name)
       values ($1, 'https://hub.csp-test.example/', 'csp-test-credential', '{}', 'CSP test')`,
      [team?.id],
    );
    await h.app.hubOrigins.refresh();
    expect(connect(await csp())).toContain('https://hub.csp-test.example');
    // Deleting the credential takes the Hub out of the policy at once.
    const { token } = await h.signIn(DEMO_ADMINS.superAdmin);
    const deleted = await h.post('/api/v1/credentials/delete/', { credential_id: 'csp-test-credential' }, token.access);
    expect(deleted.status, deleted.text).toBe(200);
    expect(connect(await csp())).not.toContain('https://hub.csp-test.example');
  });
});

describe('finding 10: every route is rate limited', () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await startHarness({ seed: false, rateLimitPerMinute: 3 });
  });
  afterAll(() => limited?.close());

  test('/organization/* calls count against the client like every API call', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await limited.post('/organization/admin/user/add/', {})).status);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses[3]).toBe(429);
  });
});
