import { DEFAULT_APPROVAL_POLICY, type HubTokens, LoginSuccess, liveScopes } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { heldScopes, splitScopes } from './elevation-rules.ts';
import { breakGlassElevation } from './elevations.service.ts';

const ALEX = DEMO_ADMINS.superAdmin; // the team's one standing super admin
const ADAM = DEMO_ADMINS.admin; // made eligible for super admin just in time

const MEMBERS = '/api/v1/team/admin/members/'; // a super-admin-only call of the server
const ELEVATIONS = '/api/v1/team/admin/elevations/';
const REQUEST = '/api/v1/team/admin/elevation/request/';
const DROP = '/api/v1/team/admin/elevation/drop/';
const SETTINGS = '/api/v1/team/admin/elevation/settings/';
const ELIGIBILITY = '/api/v1/team/admin/eligibility/';
const DECIDE = '/api/v1/team/approvals/decide/';
const POLICY_UPDATE = '/api/v1/team/approvals/policy/update/';
const AUDIT = '/api/v1/audit/vault/summaries/'; // a super-admin-only call of the Hub

let h: Harness;
const session: Record<string, { console: string; hub: HubTokens }> = {};

async function signInWithHub(email: string) {
  const login = LoginSuccess.parse(await h.signIn(email));
  const aux = login.aux_code;
  if (!aux) throw new Error('no aux code');
  const res = await fetch(`${aux.server_url}/auth/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${aux.access}` },
    body: JSON.stringify({ team_slug: 'northwind' }),
  });
  if (res.status !== 200) throw new Error(`hub token ${res.status}`);
  return { console: login.token.access, hub: (await res.json()) as HubTokens };
}

const hubCall = async (path: string, token: string, body: object = { team_slug: 'northwind' }) =>
  (
    await fetch(`${h.hub?.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    })
  ).status;

/** The Hub's refresh: it asks the server for the admin's scopes now (and their expiry). */
async function refreshHub(who: string) {
  const s = session[who] as { hub: HubTokens };
  const res = await fetch(`${h.hub?.url}/auth/token/refresh/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh: s.hub.refresh }),
  });
  expect(res.status).toBe(200);
  s.hub = (await res.json()) as HubTokens;
}

const token = (who: string) => (session[who] as { console: string }).console;
const securityEvents = (kind: string) =>
  h.db.query<{ email: string; detail: Record<string, unknown> }>(
    'select email, detail from security_events where kind = $1 order by id',
    [kind],
  );
/** The team's event log on the Hub (what its SIEM export delivers), once the outbox reached it. */
async function hubEvents(activity: string, count = 1) {
  const deadline = Date.now() + 8000;
  for (;;) {
    const rows = await (h.hub as NonNullable<Harness['hub']>).db.query<{ actor: string; detail: Record<string, unknown> }>(
      "select actor, detail from event_log where team_slug = 'northwind' and activity = $1 order by seq",
      [activity],
    );
    if (rows.length >= count || Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const hubScopes = async (email: string) =>
  (
    await (h.hub as NonNullable<Harness['hub']>).db.query<{ scopes: string[] }>(
      'select scopes from hub_sessions where email = $1 and revoked_at is null',
      [email],
    )
  ).map((r) => r.scopes);

beforeAll(async () => {
  // Long-lived access tokens on both programs: a token minted before an elevation's expiry is
  // still valid after it, so a refusal there is the elevation's end, not the token's.
  h = await startHarness({
    hub: true,
    env: { ACCESS_TOKEN_TTL_SECONDS: '7200', ELEVATION_SWEEP_INTERVAL_MS: '2000', EVENT_FORWARD_INTERVAL_MS: '100' },
    hubEnv: { ACCESS_TOKEN_TTL_SECONDS: '7200' },
  });
  session.alex = await signInWithHub(ALEX);
  session.adam = await signInWithHub(ADAM);
});
afterAll(() => h?.close());

describe('rules (unit)', () => {
  test('a time-bound scope joins the standing ones with its expiry; a standing one never expires', () => {
    const until = new Date(10_000);
    expect(heldScopes(['admin'], [{ scope: 'super_admin', expires_at: until }])).toEqual({
      scopes: ['admin', 'super_admin'],
      expiry: { super_admin: 10_000 },
    });
    expect(heldScopes(['super_admin'], [{ scope: 'super_admin', expires_at: until }])).toEqual({
      scopes: ['super_admin'],
      expiry: {},
    });
  });
  test('a scope falls away at its expiry, not a millisecond later', () => {
    expect(liveScopes(['admin', 'super_admin'], { super_admin: 10_000 }, 9_999)).toEqual(['admin', 'super_admin']);
    expect(liveScopes(['admin', 'super_admin'], { super_admin: 10_000 }, 10_000)).toEqual(['admin']);
    expect(liveScopes(['admin'], undefined, 10_000)).toEqual(['admin']);
  });
  test('a scope held standing is not also eligible', () => {
    expect(splitScopes(['admin', 'admin'], ['admin', 'super_admin'])).toEqual({ scopes: ['admin'], eligible: ['super_admin'] });
  });
});

describe('just-in-time admin rights over HTTP', () => {
  test('off (the default): a request is refused and every scope is standing, as today', async () => {
    const overview = await h.post(ELEVATIONS, {}, token('adam'));
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({ settings: { enabled: false }, eligible_scopes: [], elevations: [] });
    const refused = await h.post(REQUEST, { scope: 'super_admin', minutes: 60, reason: 'rotate keys' }, token('adam'));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'elevation_off', message_key: 'errors.elevation_off' });
    expect((await h.post(MEMBERS, {}, token('adam'))).status).toBe(403);
  });

  test('only a super admin switches it on and names who is eligible; the last standing super admin stays', async () => {
    expect((await h.post(SETTINGS, { enabled: true }, token('adam'))).status).toBe(403);
    expect(
      (await h.post(ELIGIBILITY, { email: ADAM, scopes: ['admin'], eligible_scopes: ['super_admin'] }, token('adam'))).status,
    ).toBe(403);
    const on = await h.post(SETTINGS, { enabled: true }, token('alex'));
    expect(on.status, on.text).toBe(200);
    expect(on.body).toEqual({ enabled: true, self_scopes: [] });
    // The lock-out rule: the team's one standing super admin cannot become time-bound.
    const lockout = await h.post(
      ELIGIBILITY,
      { email: ALEX, scopes: ['admin'], eligible_scopes: ['super_admin'] },
      token('alex'),
    );
    expect(lockout.status).toBe(400);
    expect(lockout.body).toMatchObject({ code: 'last_super_admin' });
    const eligible = await h.post(
      ELIGIBILITY,
      { email: ADAM, scopes: ['admin'], eligible_scopes: ['super_admin', 'recovery_agent', 'admin'] },
      token('alex'),
    );
    expect(eligible.status, eligible.text).toBe(200);
    const list = await h.post<{ admins: { email: string; scopes: string[]; eligible_scopes: string[] }[] }>(
      MEMBERS,
      {},
      token('alex'),
    );
    expect(list.body.admins.find((a) => a.email === ADAM)).toMatchObject({
      scopes: ['admin'],
      eligible_scopes: ['super_admin', 'recovery_agent'],
    });
    expect((await securityEvents('admin_eligibility_changed')).map((e) => e.email)).toEqual([ADAM]);
  });

  test('durations outside 15 min – 8 h, a missing reason and a scope not eligible for are refused', async () => {
    for (const minutes of [14, 481, 0, 15.5]) {
      const res = await h.post(REQUEST, { scope: 'super_admin', minutes, reason: 'rotate keys' }, token('adam'));
      expect(res.status, `${minutes} min`).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_input' });
    }
    expect((await h.post(REQUEST, { scope: 'super_admin', minutes: 60, reason: ' ' }, token('adam'))).status).toBe(400);
    const integrator = await h.post(REQUEST, { scope: 'integrator', minutes: 60, reason: 'set up the Hub' }, token('adam'));
    expect(integrator.status).toBe(403);
    expect(integrator.body).toMatchObject({ code: 'not_eligible' });
    // Alex is eligible for nothing: holding super admin standing, there is nothing to elevate to.
    expect((await h.post(REQUEST, { scope: 'super_admin', minutes: 60, reason: 'x'.repeat(5) }, token('alex'))).status).toBe(403);
    expect((await h.post(ELEVATIONS, {}, token('adam'))).body).toMatchObject({ elevations: [] });
  });

  let requestId = '';
  test('a request waits for another super admin; the requester cannot approve it', async () => {
    const asked = await h.post(REQUEST, { scope: 'super_admin', minutes: 15, reason: 'rotate the SCIM token' }, token('adam'));
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body).toMatchObject({ code: 'approval_required' });
    requestId = asked.body.request_id as string;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const again = await h.post(REQUEST, { scope: 'super_admin', minutes: 30, reason: 'again' }, token('adam'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'elevation_exists' });
    const mine = await h.post<{ elevations: { status: string; request_id: string }[]; approvers_available: boolean }>(
      ELEVATIONS,
      {},
      token('adam'),
    );
    expect(mine.body.elevations).toEqual([expect.objectContaining({ status: 'pending', request_id: requestId })]);
    expect(mine.body.approvers_available).toBe(true);
    const own = await h.post(DECIDE, { id: requestId, decision: 'approve', comment: 'me' }, token('adam'));
    expect(own.status).toBeGreaterThanOrEqual(400);
    expect((await h.post(MEMBERS, {}, token('adam'))).status).toBe(403);
    const [requested] = await securityEvents('admin_elevation_requested');
    expect(requested).toMatchObject({ email: ADAM, detail: { request_id: requestId, scope: 'super_admin', minutes: 15 } });
  });

  let expiresAt = 0;
  test('approved by another super admin: the scope works at once, on the server and (after its refresh) on the Hub', async () => {
    expect(await hubCall(AUDIT, session.adam?.hub.access as string)).toBe(403);
    const approved = await h.post(DECIDE, { id: requestId, decision: 'approve', comment: 'go ahead' }, token('alex'));
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'applied' });
    // The same access token, no new sign-in: the server reads the scopes per request.
    expect((await h.post(MEMBERS, {}, token('adam'))).status).toBe(200);
    expect((await h.post('/api/v1/team/admin/scope/', {}, token('adam'))).body).toEqual({ scope: ['admin', 'super_admin'] });
    await refreshHub('adam');
    expect(await hubCall(AUDIT, session.adam?.hub.access as string)).toBe(200);

    const list = await h.post<{
      admins: { email: string; elevations: { scope: string; status: string; expires_at: number }[] }[];
    }>(MEMBERS, {}, token('alex'));
    const held = list.body.admins.find((a) => a.email === ADAM)?.elevations ?? [];
    expect(held).toEqual([expect.objectContaining({ scope: 'super_admin', status: 'active' })]);
    expiresAt = held[0]?.expires_at ?? 0;
    expect(Math.abs(expiresAt - (Date.now() + 15 * 60_000))).toBeLessThan(10_000);
    const [approvedEvent] = await hubEvents('admin.elevation_approved');
    expect(approvedEvent).toMatchObject({ actor: ALEX, detail: { request_id: requestId, scope: 'super_admin' } });
  });

  test('at its expiry the scope falls away on the server and the Hub, under tokens minted before', async () => {
    // Only Date is faked: both programs run in this process, so their clocks move here together.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(expiresAt + 1_000);
      expect((await h.post(MEMBERS, {}, token('adam'))).status).toBe(403);
      // The Hub still lists the scope on the session (nothing told it): its own clock refuses it.
      expect((await hubScopes(ADAM)).flat()).toContain('super_admin');
      expect(await hubCall(AUDIT, session.adam?.hub.access as string)).toBe(403);
      // Standing scopes are untouched.
      expect((await h.post('/api/v1/team/admin/scope/', {}, token('adam'))).body).toEqual({ scope: ['admin'] });
    } finally {
      vi.useRealTimers();
    }
    // Before the expiry, the very same tokens are good: the refusals above were the elevation's end.
    expect((await h.post(MEMBERS, {}, token('adam'))).status).toBe(200);
    expect(await hubCall(AUDIT, session.adam?.hub.access as string)).toBe(200);
  });

  test('the sweep ends an elevation past its time, records it, and tells the Hub', async () => {
    // Its time comes by the database's clock, which decides the sweep.
    await h.db.query("update admin_elevations set expires_at = now() where status = 'active' and scope = 'super_admin'");
    expect((await h.post(MEMBERS, {}, token('adam'))).status).toBe(403);
    const [expired] = await hubEvents('admin.elevation_expired');
    expect(expired).toMatchObject({ actor: 'system', detail: { request_id: requestId, scope: 'super_admin' } });
    const deadline = Date.now() + 8000;
    while ((await hubScopes(ADAM)).flat().includes('super_admin') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await hubScopes(ADAM)).toEqual([['admin']]);
    expect((await h.post(ELEVATIONS, {}, token('adam'))).body).toMatchObject({
      elevations: [expect.objectContaining({ status: 'ended', ended_reason: 'expired' })],
    });
  });

  test('self-elevation only for the scopes the approval policy allows, with the reason logged; dropping ends it at once', async () => {
    const policy = await h.post(
      POLICY_UPDATE,
      { policy: { ...DEFAULT_APPROVAL_POLICY, self_elevate_scopes: ['recovery_agent'] } },
      token('alex'),
    );
    expect(policy.status, policy.text).toBe(200);
    const self = await h.post<{ code: string; elevation: { id: string; status: string; expires_at: number } }>(
      REQUEST,
      { scope: 'recovery_agent', minutes: 30, reason: 'approve a recovery' },
      token('adam'),
    );
    expect(self.status, self.text).toBe(200);
    expect(self.body).toMatchObject({ code: 'elevated', elevation: { status: 'active' }, request_id: null });
    expect((await h.post('/api/v1/team/admin/scope/', {}, token('adam'))).body).toEqual({ scope: ['admin', 'recovery_agent'] });
    const [logged] = await hubEvents('admin.elevation_self');
    expect(logged).toMatchObject({ actor: ADAM, detail: { reason: 'approve a recovery', scope: 'recovery_agent', minutes: 30 } });
    // Super admin is not in the policy's list: it still needs an approver.
    const needs = await h.post(REQUEST, { scope: 'super_admin', minutes: 60, reason: 'again' }, token('adam'));
    expect(needs.status).toBe(202);

    await refreshHub('adam');
    expect((await hubScopes(ADAM)).flat()).toContain('recovery_agent');
    // Someone else's elevation, or an unknown one, is not found.
    expect((await h.post(DROP, { id: self.body.elevation.id }, token('alex'))).status).toBe(404);
    const dropped = await h.post(DROP, { id: self.body.elevation.id }, token('adam'));
    expect(dropped.status, dropped.text).toBe(200);
    expect((await h.post(DROP, { id: self.body.elevation.id }, token('adam'))).status).toBe(404);
    expect((await h.post('/api/v1/team/admin/scope/', {}, token('adam'))).body).toEqual({ scope: ['admin'] });
    expect((await securityEvents('admin_elevation_dropped')).at(-1)).toMatchObject({ email: ADAM });
    // The Hub hears it through the session revocation channel, without ending the session.
    const deadline = Date.now() + 8000;
    while ((await hubScopes(ADAM)).flat().includes('recovery_agent') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await hubScopes(ADAM)).toEqual([['admin']]);
  });

  test('a request withdrawn before approval grants nothing when approved later', async () => {
    const mine = await h.post<{ elevations: { id: string; status: string; request_id: string }[] }>(
      ELEVATIONS,
      {},
      token('adam'),
    );
    const pending = mine.body.elevations.find((e) => e.status === 'pending');
    expect(pending).toBeDefined();
    expect((await h.post(DROP, { id: pending?.id }, token('adam'))).status).toBe(200);
    const late = await h.post(DECIDE, { id: pending?.request_id, decision: 'approve', comment: '' }, token('alex'));
    expect(late.status, late.text).toBe(200);
    expect(late.body).toMatchObject({ status: 'failed' });
    expect((await h.post(MEMBERS, {}, token('adam'))).status).toBe(403);
  });

  test('the operator breaks glass with a logged reason; switching the setting off ends every elevation', async () => {
    const team = (await h.db.query<{ id: string }>("select id from teams where slug = 'northwind'"))[0]?.id as string;
    await expect(
      breakGlassElevation(h.db, { teamId: team, email: ADAM, scope: 'super_admin', minutes: 600, reason: 'outage' }),
    ).rejects.toThrow(/15 to 480 minutes/);
    await expect(
      breakGlassElevation(h.db, { teamId: team, email: ADAM, scope: 'super_admin', minutes: 60, reason: '' }),
    ).rejects.toThrow(/reason/);
    const glass = await breakGlassElevation(h.db, {
      teamId: team,
      email: ADAM,
      scope: 'super_admin',
      minutes: 60,
      reason: 'Alex is on leave; incident 42',
    });
    expect(glass).toMatchObject({ status: 'active', scope: 'super_admin' });
    expect((await h.post(MEMBERS, {}, token('adam'))).status).toBe(200);
    const [broken] = await hubEvents('admin.elevation_break_glass');
    expect(broken).toMatchObject({ actor: 'system', detail: { operator: true, reason: 'Alex is on leave; incident 42' } });

    const off = await h.post(SETTINGS, { enabled: false }, token('alex'));
    expect(off.status).toBe(200);
    expect((await h.post(MEMBERS, {}, token('adam'))).status).toBe(403);
    expect((await h.post(ELEVATIONS, {}, token('adam'))).body).toMatchObject({
      settings: { enabled: false },
      eligible_scopes: [],
      elevations: expect.arrayContaining([expect.objectContaining({ status: 'ended', ended_reason: 'settings_off' })]),
    });
    expect((await h.post(REQUEST, { scope: 'super_admin', minutes: 60, reason: 'again' }, token('adam'))).status).toBe(409);
  });
});
