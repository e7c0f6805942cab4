import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { type HubTokens, hubAdminRoleEndpoint, hubSessionCheckEndpoint, type LoginSuccess } from '@latchkey/contracts';
import { signCall } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../demo/index.ts';

/**
 * The trust between this server and a real Hub (docs/security.md): a Hub session ends with the
 * console session it came from — pushed at once, or found at the Hub's next refresh when the push
 * was lost — and the Hub→server channel refuses anything but a fresh, unreplayed call signed by
 * the Hub's own key.
 */
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ hub: true });
});
afterAll(async () => {
  await h?.close();
});

const hubUrl = () => h.hub?.url as string;
const hubPost = (path: string, body: unknown, bearer?: string) =>
  fetch(hubUrl() + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });

/** Console sign-in, then the console's exchange of the aux code at the Hub. */
async function signInBoth(email: string): Promise<{ console: LoginSuccess; hub: HubTokens }> {
  const signedIn = await h.signIn(email);
  expect(signedIn.aux_code).not.toBeNull();
  const res = await hubPost('/auth/token/', { team_slug: 'northwind', device: {} }, signedIn.aux_code?.access);
  expect(res.status).toBe(200);
  return { console: signedIn, hub: (await res.json()) as HubTokens };
}
const hubWhoami = (tokens: HubTokens) => hubPost('/api/v1/session/', { team_slug: 'northwind' }, tokens.access);
const hubRefresh = (tokens: HubTokens) => hubPost('/auth/token/refresh/', { refresh: tokens.refresh });

/** Ended by the push alone (a whoami never asks the server), within moments: the queue runs it at once. */
async function expectHubSessionEnded(tokens: HubTokens) {
  const deadline = Date.now() + 3_000;
  while ((await hubWhoami(tokens)).status !== 401) {
    if (Date.now() > deadline) throw new Error('the Hub session was not ended by the push');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect((await hubRefresh(tokens)).status).toBe(400);
}

describe('ending the console session ends the Hub session at once', () => {
  test('sign-out', async () => {
    const { console: c, hub } = await signInBoth(DEMO_ADMINS.superAdmin);
    expect((await hubWhoami(hub)).status).toBe(200);
    expect((await h.post('/api/v1/user/signout/', {}, c.token.access)).status).toBe(200);
    await expectHubSessionEnded(hub);
  });

  test('removal of a recovery agent, who then cannot approve recovery requests', async () => {
    // One recovery role: the agent is also in the Hub's recovery group, beside another member.
    const hubDb = h.hub?.db;
    if (!hubDb) throw new Error('no Hub');
    const inGroup = async () =>
      (
        await hubDb.query<{ email: string }>(`select email from recovery_admins where team_slug = 'northwind' order by email`)
      ).map((r) => r.email);
    for (const email of [DEMO_ADMINS.recoveryAgent, 'ines.andersen@northwind.example']) {
      await hubDb.query(
        `insert into recovery_admins (team_slug, email, teamuser_id, state, requested_by, accepted_at)
         values ('northwind', $1, $1, 'active', $2, now())`,
        [email, DEMO_ADMINS.superAdmin],
      );
    }
    const { hub } = await signInBoth(DEMO_ADMINS.recoveryAgent);
    const { console: sup } = await signInBoth(DEMO_ADMINS.superAdmin);
    // A sign-out changes no role: the group stays.
    const other = await signInBoth(DEMO_ADMINS.admin);
    expect((await h.post('/api/v1/user/signout/', {}, other.console.token.access)).status).toBe(200);
    await expectHubSessionEnded(other.hub);
    expect(await inGroup()).toEqual(['ines.andersen@northwind.example', DEMO_ADMINS.recoveryAgent].sort());
    const removed = await h.post(
      '/organization/admin/user/remove/',
      { action: 'remove_admin', email: DEMO_ADMINS.recoveryAgent },
      sup.token.access,
    );
    expect(removed.status).toBe(200);
    await expectHubSessionEnded(hub);
    // The server took the role away: the Hub's recovery group no longer holds them; the others stay.
    await expect.poll(inGroup, { timeout: 3_000 }).toEqual(['ines.andersen@northwind.example']);
    const approve = await hubPost(
      '/organization/recovery/admin/request/',
      { team_slug: 'northwind', emails: ['ines.andersen@northwind.example'], state: 'approved' },
      hub.access,
    );
    expect(approve.status).toBe(401);
    // Back with other scopes (a scope change): the old Hub session stays ended, a new one has the new scopes.
    const added = await h.post(
      '/organization/admin/user/add/',
      { email: DEMO_ADMINS.recoveryAgent, scopes: ['admin'] },
      sup.token.access,
    );
    expect(added.body).toMatchObject({ code: 'invited' });
    const token = await h.invitationToken(DEMO_ADMINS.recoveryAgent);
    expect((await h.post('/api/v1/console/auth/admin/invitation/accept/', { token })).status).toBe(200);
    const again = await signInBoth(DEMO_ADMINS.recoveryAgent);
    expect(await (await hubWhoami(again.hub)).json()).toMatchObject({ scopes: ['admin'] });
  });

  test('auth reset', async () => {
    const { hub } = await signInBoth(DEMO_ADMINS.admin);
    const { console: sup } = await signInBoth(DEMO_ADMINS.superAdmin);
    const reset = await h.post(
      '/organization/admin/auth/reset/',
      { email: DEMO_ADMINS.admin, reset_auth: true },
      sup.token.access,
    );
    expect(reset.status).toBe(200);
    await expectHubSessionEnded(hub);
  });

  test('password change ends the other sessions on the Hub, and keeps this one', async () => {
    const other = await signInBoth(DEMO_ADMINS.integrator);
    const mine = await signInBoth(DEMO_ADMINS.integrator);
    const changed = await h.post(
      '/api/v1/console/auth/change/password/',
      { old_password: DEMO_PASSWORD, new_password: `${DEMO_PASSWORD}-New1!` },
      mine.console.token.access,
    );
    expect(changed.status).toBe(200);
    await expectHubSessionEnded(other.hub);
    expect((await hubWhoami(mine.hub)).status).toBe(200);
    // Put it back for the other tests.
    await h.post(
      '/api/v1/console/auth/change/password/',
      { old_password: `${DEMO_PASSWORD}-New1!`, new_password: DEMO_PASSWORD },
      mine.console.token.access,
    );
  });
});

describe('a lost push', () => {
  test('the Hub was down at sign-out: the queued revocation is retried and lands once it is back', async () => {
    const { console: c, hub } = await signInBoth(DEMO_ADMINS.superAdmin);
    await h.hub?.stop();
    try {
      expect((await h.post('/api/v1/user/signout/', {}, c.token.access)).status).toBe(200);
      // Nobody answers: the job waits for its retry.
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await h.hub?.restart();
    }
    // No refresh: the Hub session ends by the retried push alone.
    const deadline = Date.now() + 20_000;
    while ((await hubWhoami(hub)).status !== 401) {
      if (Date.now() > deadline) throw new Error('the Hub session outlived the console session');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  test('the push is lost altogether: the next refresh asks the server and is refused', async () => {
    const { console: c, hub } = await signInBoth(DEMO_ADMINS.superAdmin);
    await h.hub?.stop();
    try {
      expect((await h.post('/api/v1/user/signout/', {}, c.token.access)).status).toBe(200);
      // As if the queue had lost it (it does not; the re-check must not depend on that).
      await h.db.query("delete from job_queue.job where name = 'hub-sessions-ended'");
    } finally {
      await h.hub?.restart();
    }
    // The access token still verifies for its few minutes, but the refresh re-checks.
    expect((await hubWhoami(hub)).status).toBe(200);
    const refreshed = await hubRefresh(hub);
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ code: 'invalid_grant' });
    expect((await hubWhoami(hub)).status).toBe(401);
  });

  test('a live session refreshes, and its Hub session never outlives the console session', async () => {
    const { console: c, hub } = await signInBoth(DEMO_ADMINS.superAdmin);
    const res = await hubRefresh(hub);
    expect(res.status).toBe(200);
    const next = (await res.json()) as HubTokens;
    const [session] = await h.db.query<{ absolute_expires_at: Date }>(
      'select absolute_expires_at from sessions order by created_at desc limit 1',
    );
    expect(next.refresh_expires_at).toBeLessThanOrEqual(session?.absolute_expires_at.getTime() ?? 0);
    expect(c.token.refresh_expires_at).toBeGreaterThan(0);
  });
});

describe('registration', () => {
  test("a second credential on the team's Hub is vouched for by the server's key, no setup key; nothing shown can sign", async () => {
    const { console: sup } = await signInBoth(DEMO_ADMINS.superAdmin);
    const added = await h.post<{ credential_id: string }>('/api/v1/credentials/add/', { name: 'Second' }, sup.token.access);
    const setUp = await h.post(
      '/api/v1/credentials/setup/',
      { device: {}, latchkey_hosted_hub: { credential_id: added.body.credential_id, server_url: hubUrl() } },
      sup.token.access,
    );
    expect(setUp.status).toBe(200);
    const { d } = h.serverKey.export({ format: 'jwk' });
    for (const text of [added.text, setUp.text]) {
      expect(text).not.toMatch(/"secret"|PRIVATE KEY/i);
      expect(text).not.toContain(String(d));
    }
    const [row] = (await h.hub?.db.query<{ team_slug: string }>('select team_slug from registrations where credential_id = $1', [
      added.body.credential_id,
    ])) ?? [{ team_slug: '' }];
    expect(row?.team_slug).toBe('northwind');
  });
});

describe('the Hub to server channel (session check)', () => {
  const PATH = hubSessionCheckEndpoint.path;
  const check = (token: string | undefined, json: string) =>
    fetch(h.url + PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: json,
    });
  const body = (sid: string, userId: string) => ({ team_slug: 'northwind', sid, user_id: userId });
  const signed = (key: KeyObject, b: object) => signCall(key, 'demo-hub', PATH, 'northwind', b);

  test('answers a call signed by the Hub key, once; refuses unsigned, other keys, replays, stale and altered calls', async () => {
    const { console: c } = await signInBoth(DEMO_ADMINS.superAdmin);
    const [session] = await h.db.query<{ id: string; user_id: string }>(
      'select id, user_id from sessions order by created_at desc limit 1',
    );
    const b = body(session?.id ?? '', session?.user_id ?? '');
    const hubKey = h.hub?.key as KeyObject;

    const good = signed(hubKey, b);
    const ok = await check(good.token, good.json);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ live: true, scopes: ['super_admin'] });
    expect((await check(good.token, good.json)).status).toBe(401);

    expect((await check(undefined, JSON.stringify(b))).status).toBe(401);
    const stranger = signed(generateKeyPairSync('ed25519').privateKey, b);
    expect((await check(stranger.token, stranger.json)).status).toBe(401);
    // The server's own key is not the Hub's: a grant-signing key cannot answer for the Hub.
    const mine = signed(h.serverKey, b);
    expect((await check(mine.token, mine.json)).status).toBe(401);

    const altered = signed(hubKey, b);
    expect((await check(altered.token, JSON.stringify({ ...b, sid: '00000000-0000-0000-0000-000000000000' }))).status).toBe(401);
    const realNow = Date.now;
    Date.now = () => realNow() - 5 * 60_000;
    let stale: { token: string; json: string };
    try {
      stale = signed(hubKey, b);
    } finally {
      Date.now = realNow;
    }
    expect((await check(stale.token, stale.json)).status).toBe(401);

    // Signed out: the same question now says ended.
    await h.post('/api/v1/user/signout/', {}, c.token.access);
    const after = signed(hubKey, b);
    expect(await (await check(after.token, after.json)).json()).toEqual({ live: false, scopes: [], absolute_expires_at: null });
  });
});

describe('the Hub to server channel (admin role): the recovery group follows recovery_agent', () => {
  // An earlier test gives Rory other scopes; here he holds recovery_agent again, as in the demo.
  beforeAll(async () => {
    await h.db.query(
      `update team_admins set scopes = '{recovery_agent}' where user_id = (select id from users where email = $1)`,
      [DEMO_ADMINS.recoveryAgent],
    );
  });
  const PATH = hubAdminRoleEndpoint.path;
  const ask = (token: string | undefined, json: string) =>
    fetch(h.url + PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: json,
    });
  const signed = (key: KeyObject, b: object) => signCall(key, 'demo-hub', PATH, 'northwind', b);

  test("answers the email's scopes to the Hub's key only; refuses unsigned, foreign-signed and replayed calls", async () => {
    const hubKey = h.hub?.key as KeyObject;
    const rory = { team_slug: 'northwind', email: DEMO_ADMINS.recoveryAgent };
    const good = signed(hubKey, rory);
    const ok = await ask(good.token, good.json);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { scopes: string[] }).scopes).toContain('recovery_agent');
    expect((await ask(good.token, good.json)).status).toBe(401);
    expect((await ask(undefined, JSON.stringify(rory))).status).toBe(401);
    const stranger = signed(generateKeyPairSync('ed25519').privateKey, rory);
    expect((await ask(stranger.token, stranger.json)).status).toBe(401);
    const mine = signed(h.serverKey, rory);
    expect((await ask(mine.token, mine.json)).status).toBe(401);
    const member = signed(hubKey, { team_slug: 'northwind', email: 'nobody.here@northwind.example' });
    expect(await (await ask(member.token, member.json)).json()).toEqual({ scopes: [] });
  });

  test('the real Hub refuses to nominate someone without the role, asking the real server', async () => {
    const { hub } = await signInBoth(DEMO_ADMINS.superAdmin);
    const nominate = (email: string) =>
      hubPost('/recovery/create/admin/request/', { team_slug: 'northwind', email, teamuser_id: email }, hub.access);
    const refused = await nominate(DEMO_ADMINS.superAdmin);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'recovery_role_required', message_key: 'errors.recovery_role_required' });
    // Rory holds recovery_agent: the role check passes and the Hub's own rules answer (already in the group, or no key yet).
    const rory = await nominate(DEMO_ADMINS.recoveryAgent);
    expect(((await rory.json()) as { code?: string }).code).not.toBe('recovery_role_required');
  });
});

describe("the team's plan reaches the Hub", () => {
  const eventLogs = (tokens: HubTokens) => hubPost('/audit/logs/fetch/', { team_slug: 'northwind' }, tokens.access);
  const siemTools = (tokens: HubTokens) => hubPost('/siem/tools/', { team_slug: 'northwind' }, tokens.access);

  test('a team moved off the enterprise, standard and starter plans is refused event logs and SIEM by the Hub itself', async () => {
    const before = await signInBoth(DEMO_ADMINS.superAdmin);
    expect((await eventLogs(before.hub)).status).toBe(200);
    expect((await siemTools(before.hub)).status).toBe(200);

    await h.db.query("update teams set organization_type = 'basic' where slug = 'northwind'");
    try {
      // The session check states the plan now: the open Hub session loses the calls at its next refresh.
      const refreshed = await hubRefresh(before.hub);
      expect(refreshed.status).toBe(200);
      const followed = (await refreshed.json()) as HubTokens;
      expect((await eventLogs(followed)).status).toBe(403);
      expect((await siemTools(followed)).status).toBe(403);

      // A new sign-in's grant carries the plan.
      const after = await signInBoth(DEMO_ADMINS.superAdmin);
      const refused = await eventLogs(after.hub);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'forbidden' });
      expect((await siemTools(after.hub)).status).toBe(403);
    } finally {
      await h.db.query("update teams set organization_type = 'enterprise' where slug = 'northwind'");
    }
  });
});
