import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, DEMO_PASSWORD, SIGN_IN_DEMO, seedSecurityDemo } from '../demo/index.ts';
import { loginTokensRepository } from './login-tokens.ts';

const A = '/api/v1/console/auth';
const ORIGIN = 'http://localhost:5173';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedSecurityDemo(h.db);
});
afterAll(() => h?.close());

const send = async (path: string, body: unknown, authorization?: string) => {
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: ORIGIN };
  if (authorization) headers.authorization = authorization;
  const res = await fetch(h.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const events = (reason: string) =>
  h.db.query("select 1 from security_events where kind = 'sign_in_failed' and detail->>'reason' = $1", [reason]);
const userId = async (email: string) =>
  (await h.db.query<{ id: string }>('select id from users where email = $1', [email]))[0]?.id as string;
const teamId = async (slug: string) =>
  (await h.db.query<{ id: string }>('select id from teams where slug = $1', [slug]))[0]?.id as string;

describe('family/{token}: app-initiated sign-in', () => {
  test('the family owner’s app gets a token; Basic token signs in once; reused, expired or missing is 401', async () => {
    const app = (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access;
    const minted = await send('/api/v1/app/console/login/token/', {}, `Bearer ${app}`);
    expect(minted.status).toBe(200);
    expect(minted.body.expires_in).toBe(120);
    const token = minted.body.token as string;

    const ok = await send(`${A}/app/login/verify/`, { device: { type: 'browser' } }, `Basic ${token}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ email: DEMO_ADMINS.twoTeams, team_slug: 'sam-family' });
    const session = (ok.body.token as { access: string }).access;
    expect((await send('/api/v1/team/info/', {}, `Bearer ${session}`)).status).toBe(200);

    const again = await send(`${A}/app/login/verify/`, {}, `Basic ${token}`);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('unauthorized');
    expect((await send(`${A}/app/login/verify/`, {})).status).toBe(401);
    expect((await send(`${A}/app/login/verify/`, {}, `Bearer ${token}`)).status).toBe(401);
    expect((await send(`${A}/app/login/verify/`, {}, 'Basic short')).status).toBe(401);

    const stale = (await send('/api/v1/app/console/login/token/', {}, `Bearer ${app}`)).body.token as string;
    await h.db.query("update login_tokens set expires_at = now() - interval '1 second' where used_at is null");
    expect((await send(`${A}/app/login/verify/`, {}, `Basic ${stale}`)).status).toBe(401);
    // Reused and expired tokens are recorded; a missing or malformed header never reaches a token.
    expect((await events('app_login_token_invalid')).length).toBe(2);
    const [signIn] = await h.db.query<{ n: number }>(
      "select count(*)::int as n from security_events where kind = 'sign_in' and detail->>'method' = 'family_app'",
    );
    expect(signIn?.n).toBe(1);
  });

  test('only a family team’s super admin can ask for a token, and parallel uses of one token sign in once', async () => {
    const org = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
    const refused = await send('/api/v1/app/console/login/token/', {}, `Bearer ${org}`);
    expect(refused.status).toBe(403);
    expect((await send('/api/v1/app/console/login/token/', {})).status).toBe(401);

    const token = await loginTokensRepository.issue(
      h.db,
      'app_login',
      await userId(DEMO_ADMINS.twoTeams),
      await teamId('sam-family'),
    );
    const replies = await Promise.all(Array.from({ length: 4 }, () => send(`${A}/app/login/verify/`, {}, `Basic ${token}`)));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
  });
});

describe('SSO routing (spec §4) without an identity provider', () => {
  test('an emailed-code admin of an SSO team gets the choice, and no code until choosing it', async () => {
    const before = h.mail.length;
    const choice = await send(`${A}/login/`, { email: SIGN_IN_DEMO.olga });
    expect(choice.body).toEqual({
      code: 'signin_with_sso_or_otp',
      team_slug: 'contoso',
      team_name: 'Contoso Ltd',
      sso_configurations: [{ config_uuid: SIGN_IN_DEMO.ssoConfigId, config_name: 'Contoso Entra ID' }],
    });
    // Mail leaves through the job queue: time enough for a mail that should not exist to arrive.
    await new Promise((r) => setTimeout(r, 200));
    expect(h.mail.length).toBe(before);
    const otp = await send(`${A}/login/`, { email: SIGN_IN_DEMO.olga, team_slug: 'contoso', signin_with_otp: true });
    expect(otp.body).toMatchObject({ code: 'ok', auth_type: 'otp', otp_sent: true, is_sso_active: true });
    const code = await h.waitForCode(SIGN_IN_DEMO.olga);
    const done = await send(`${A}/verify/otp/`, { email: SIGN_IN_DEMO.olga, otp: code, team_slug: 'contoso' });
    expect(done.status).toBe(200);
    expect(done.body.team_slug).toBe('contoso');
  });

  test('a password admin sees SSO only where the team has it, and keeps the password when excluded', async () => {
    const reply = await send(`${A}/login/`, { email: DEMO_ADMINS.admin });
    expect(reply.body).toMatchObject({ code: 'ok', is_sso_active: false, sso_configurations: [] });
    const pia = await send(`${A}/login/`, { email: SIGN_IN_DEMO.pia });
    expect(pia.body).toMatchObject({ code: 'ok', auth_type: 'password', is_sso_active: true, otp_sent: false });
    const password = { email: SIGN_IN_DEMO.pia, password: DEMO_PASSWORD, team_slug: 'contoso' };
    expect((await send(`${A}/verify/password/`, password)).body).toEqual({ code: 'otp_sent' });
  });

  test('enforced SSO: the email check says so, and password or code sign-in is refused by the server', async () => {
    const reply = await send(`${A}/login/`, { email: SIGN_IN_DEMO.enzo });
    expect(reply.body.code).toBe('sso_enforced');
    const password = await send(`${A}/verify/password/`, {
      email: SIGN_IN_DEMO.enzo,
      password: DEMO_PASSWORD,
      team_slug: 'contoso',
    });
    expect(password.status).toBe(400);
    expect(password.body.code).toBe('sso_enforced');
    const otp = await send(`${A}/verify/otp/`, {
      email: SIGN_IN_DEMO.enzo,
      otp: '123456',
      password: DEMO_PASSWORD,
      team_slug: 'contoso',
    });
    expect(otp.body.code).toBe('sso_enforced');
  });

  test('starting SSO: unknown connector 404 sso_not_found; a connector without IdP metadata saml_client_generation_failed', async () => {
    const unknown = await send('/sso/login/saml/request/', {
      email: SIGN_IN_DEMO.olga,
      config_uuid: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('sso_not_found');
    const start = await send('/sso/login/saml/request/', { email: SIGN_IN_DEMO.enzo, config_uuid: SIGN_IN_DEMO.ssoConfigId });
    expect(start.status).toBe(400);
    expect(start.body.code).toBe('saml_client_generation_failed');
    expect(String(start.body.description)).toContain('no identity provider metadata');
  });

  test('the SSO return token signs in once; unknown tokens are 401 (the page then shows 45038)', async () => {
    const token = await loginTokensRepository.issue(h.db, 'sso', await userId(SIGN_IN_DEMO.enzo), await teamId('contoso'));
    const ok = await send('/sso/login/verify/token/', { token, device: { type: 'browser' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ email: SIGN_IN_DEMO.enzo, team_slug: 'contoso' });
    expect((await send('/sso/login/verify/token/', { token })).status).toBe(401);
    // A family-app token is no SSO token.
    const app = await loginTokensRepository.issue(h.db, 'app_login', await userId(SIGN_IN_DEMO.enzo), await teamId('contoso'));
    expect((await send('/sso/login/verify/token/', { token: app })).status).toBe(401);
  });
});

describe('onboarding: invitation link → email-link page → code → first password', () => {
  test('a new admin gets a link; it names the email, sends a code, and is spent by verify/otp', async () => {
    const actor = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
    const email = 'newbie@northwind.example';
    const added = await send('/organization/admin/user/add/', { email, scopes: ['admin'] }, `Bearer ${actor}`);
    expect(added.status).toBe(200);
    const [invitation] = await h.smtp.waitFor(email);
    const token = decodeURIComponent(
      /#\/email-verification\/([\w%-]+)/.exec(invitation?.raw.replace(/=\r?\n/g, '') ?? '')?.[1] ?? '',
    );
    expect(token.length).toBeGreaterThan(30);
    if (invitation) h.mail.splice(h.mail.indexOf(invitation), 1);

    expect((await send(`${A}/email/link/verify/`, { token })).body).toEqual({
      email,
      team_slug: 'northwind',
      team_name: 'Northwind Traders',
    });
    expect((await send(`${A}/email/link/verify/`, { token: 'x'.repeat(43) })).body.code).toBe('invalid_link');

    const start = await send(`${A}/login/`, { device: { type: 'browser' }, on_boarding_verification: token });
    expect(start.body).toEqual({ code: 'onboarding_otp_sent', email, team_slug: 'northwind', team_name: 'Northwind Traders' });
    const code = await h.waitForCode(email);
    const wrongLink = await send(`${A}/verify/otp/`, {
      email,
      otp: code,
      team_slug: 'northwind',
      on_boarding_verification: 'y'.repeat(43),
    });
    expect(wrongLink.body.code).toBe('invalid_link');

    await send(`${A}/login/`, { on_boarding_verification: token });
    const second = await h.waitForCode(email);
    const done = await send(`${A}/verify/otp/`, { email, otp: second, team_slug: 'northwind', on_boarding_verification: token });
    expect(done.body.code).toBe('set_password_first');
    // Spent: the page and the login call both refuse it now.
    expect((await send(`${A}/email/link/verify/`, { token })).body.code).toBe('invalid_link');
    expect((await send(`${A}/login/`, { on_boarding_verification: token })).body.code).toBe('invalid_link');
  });

  test('no email and no link is refused; an admin reset ends open links', async () => {
    const empty = await send(`${A}/login/`, { device: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.issues).toEqual([{ path: 'email', message: 'please enter your email' }]);

    const rory = await userId(DEMO_ADMINS.recoveryAgent);
    const token = await loginTokensRepository.issue(h.db, 'onboarding', rory, await teamId('northwind'));
    const actor = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
    await send('/organization/admin/auth/reset/', { email: DEMO_ADMINS.recoveryAgent, reset_auth: true }, `Bearer ${actor}`);
    expect((await send(`${A}/email/link/verify/`, { token })).body.code).toBe('invalid_link');
  });
});
