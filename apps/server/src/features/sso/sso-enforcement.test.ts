import { type HubTokens, LoginSuccess } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { startTestIdp, type TestIdp } from '../../test/saml-idp.ts';
import { postToAcs } from '../../test/sso-acs.ts';
import { activeConnector } from '../../test/sso-connector.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

/**
 * Requiring SSO ends the password and code sessions of the admins it holds, on the server and on
 * the team's (real) Hub; the sessions of excluded admins and the ones signed in through SSO go on.
 */
let h: Harness;
let idp: TestIdp;
let alex: string;
let configUuid: string;
const INFO = '/api/v1/team/admin/info/';

beforeAll(async () => {
  h = await startHarness({ hub: true });
  idp = await startTestIdp();
  alex = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
  configUuid = await activeConnector(h, idp, alex, DEMO_ADMINS.admin);
}, 60_000);
afterAll(async () => {
  await idp?.close();
  await h?.close();
});

const hubPost = (path: string, body: unknown, bearer?: string) =>
  fetch((h.hub?.url as string) + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
const hubWhoami = (tokens: HubTokens) => hubPost('/api/v1/session/', { team_slug: 'northwind' }, tokens.access);
const refresh = (token: LoginSuccess) =>
  h.postForm('/oauth/refresh/token/', { grant_type: 'refresh_token', refresh_token: token.token.refresh_token });

/** The console's exchange of a sign-in's aux code for a Hub session. */
async function withHub(signedIn: LoginSuccess) {
  const res = await hubPost('/auth/token/', { team_slug: 'northwind', device: {} }, signedIn.aux_code?.access);
  expect(res.status).toBe(200);
  return { console: signedIn, hub: (await res.json()) as HubTokens };
}

/** A sign-in through the identity provider: SSO start, the IdP's answer, the ACS, the return page. */
async function ssoSignIn(email: string) {
  const start = await h.post<{ redirect_url: string }>('/sso/login/saml/request/', {
    email,
    config_uuid: configUuid,
    team_slug: 'northwind',
  });
  expect(start.status, start.text).toBe(200);
  const answered = idp.respond(start.body.redirect_url, { user: { nameId: email, attributes: { email: [email] } } });
  const token = (await postToAcs(h.url, answered.samlResponse)).get('token');
  const verified = await h.post('/sso/login/verify/token/', { token, device: { type: 'browser' } });
  expect(verified.status, verified.text).toBe(200);
  return LoginSuccess.parse(verified.body);
}

/** Ended by the push alone (a whoami never asks the server), within moments. */
async function expectHubSessionEnded(tokens: HubTokens) {
  const deadline = Date.now() + 5_000;
  while ((await hubWhoami(tokens)).status !== 401) {
    if (Date.now() > deadline) throw new Error('the Hub session was not ended');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function expectLive(session: { console: LoginSuccess; hub?: HubTokens }) {
  expect((await h.post(INFO, {}, session.console.token.access)).status).toBe(200);
  if (session.hub) expect((await hubWhoami(session.hub)).status).toBe(200);
}

async function expectEnded(session: { console: LoginSuccess; hub?: HubTokens }) {
  expect((await h.post(INFO, {}, session.console.token.access)).status).toBe(401);
  const refreshed = await refresh(session.console);
  expect(refreshed.status).toBe(400);
  expect(refreshed.body.code).toBe('invalid_grant');
  if (session.hub) await expectHubSessionEnded(session.hub);
}

describe('requiring SSO ends the sessions it no longer allows', () => {
  test('switching it on: a held admin’s password session ends (server and Hub); SSO and excluded sessions go on', async () => {
    const adamSso = await withHub(await ssoSignIn(DEMO_ADMINS.admin));
    const adamPassword = await withHub(await h.signIn(DEMO_ADMINS.admin));
    const ivyPassword = { console: await h.signIn(DEMO_ADMINS.integrator) };
    const alexPassword = await withHub(await h.signIn(DEMO_ADMINS.superAdmin));
    const excluded = await h.post(
      '/sso/login/manage/excluded/admins/',
      { add_excluded_admins: [DEMO_ADMINS.superAdmin, DEMO_ADMINS.twoTeams] },
      alex,
    );
    expect(excluded.status, excluded.text).toBe(200);
    // Excluding changes nothing while SSO is not required.
    await expectLive(adamPassword);

    const enforced = await h.post('/sso/login/policy/update/', { enforce_sso: true }, alex);
    expect(enforced.body).toMatchObject({ enforce_sso: true, in_effect: true });

    await expectEnded(adamPassword);
    await expectEnded(ivyPassword);
    await expectLive(adamSso);
    await expectLive(alexPassword);
    const renewed = await refresh(adamSso.console);
    expect(renewed.status, renewed.text).toBe(200);
    const [event] = await h.db.query<{ detail: { reason: string } }>(
      "select e.detail from security_events e join users u on u.id = e.user_id where e.kind = 'session_revoked' and u.email = $1",
      [DEMO_ADMINS.admin],
    );
    expect(event?.detail.reason).toBe('sso_required');
  });

  test('an admin taken off the excluded list, or a connector active again, ends what SSO no longer allows', async () => {
    const samPassword = await withHub(await h.signIn(DEMO_ADMINS.twoTeams));
    const removed = await h.post('/sso/login/manage/excluded/admins/', { remove_excluded_admins: [DEMO_ADMINS.twoTeams] }, alex);
    expect(removed.status, removed.text).toBe(200);
    await expectEnded(samPassword);

    // No active connector: the requirement is not in effect, and Ivy signs in with her password.
    expect((await h.post('/sso/login/config/deactivate/', { config_uuid: configUuid }, alex)).status).toBe(200);
    const ivyPassword = await withHub(await h.signIn(DEMO_ADMINS.integrator));
    await expectLive(ivyPassword);
    expect((await h.post('/sso/login/config/activate/', { config_uuid: configUuid }, alex)).status).toBe(200);
    await expectEnded(ivyPassword);
    await expectLive({ console: await h.signIn(DEMO_ADMINS.superAdmin) });
  });

  test('switching it off is an event in the team’s log on the Hub (what the “Require SSO off” alert watches)', async () => {
    const alexHub = await withHub(await h.signIn(DEMO_ADMINS.superAdmin));
    const off = await h.post('/sso/login/policy/update/', { enforce_sso: false }, alexHub.console.token.access);
    expect(off.status, off.text).toBe(200);
    const logged = async () => {
      const res = await hubPost(
        '/audit/logs/fetch/',
        { team_slug: 'northwind', filters: { activities: ['sso.require_sso_disabled'] } },
        alexHub.hub.access,
      );
      return ((await res.json()) as { results: { actor: string }[] }).results;
    };
    const end = Date.now() + 20_000;
    while (!(await logged()).length && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
    expect((await logged())[0]?.actor).toBe(DEMO_ADMINS.superAdmin);
  });
});
