import {
  type AccessContext,
  accessDenial,
  type Endpoint,
  endpointsOf,
  type HubTokens,
  type LoginSuccess,
  type Scope,
} from '@latchkey/contracts';
import { accessTokens } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadHubTokenSecret } from '../../../hub/src/platform/keys.ts';
import { seedSecurityDemo } from '../features/demo/security.demo.ts';
import { DEMO_ADMINS } from '../features/demo/seed.ts';
import { SIGN_IN_DEMO } from '../features/demo/sign-in.demo.ts';
import { teamRepository } from '../features/team/team.repository.ts';
import { loadServerKeys } from '../platform/keys.ts';
import { type Harness, startHarness } from './harness.ts';

/**
 * The access matrix of the "Done when": every call of both programs (generated from
 * the endpoint declarations of each program, never a list written here) × every scope × own team / other
 * team × token state (none, forged, expired, revoked, the other program's). The expected answer is
 * computed from the call's contract: 401 for every unusable token; 403 when `accessDenial` of its
 * rule refuses the caller's live context; otherwise anything but 401/403 (an empty body may well
 * answer 400). One harness, one sign-in per caller, no sign-in per case.
 */

type Outcome = 'unauthenticated' | 'refused' | 'allowed';
const outcomeOf = (status: number): Outcome => (status === 401 ? 'unauthenticated' : status === 403 ? 'refused' : 'allowed');

const HUB_ACCESS_AUDIENCE = 'latchkey-hub-access';
const SERVER_ENDPOINTS = endpointsOf('server');
const HUB_ENDPOINTS = endpointsOf('hub');
const SESSION_CALLS = SERVER_ENDPOINTS.filter((e) => e.auth === 'session')
  // Signing out ends the caller's session: last, so every other call sees it alive.
  .sort((a, b) => Number(a.path.includes('signout')) - Number(b.path.includes('signout')));
/** Deleting the connector ends the team's registration and every Hub session: its own block, last. */
const endsRegistration = (e: Endpoint) => e.path === '/delete/connector/';
const HUB_CALLS = HUB_ENDPOINTS.filter((e) => e.auth === 'hubAuth' && !endsRegistration(e));
const HUB_TEARDOWN_CALLS = HUB_ENDPOINTS.filter((e) => e.auth === 'hubAuth' && endsRegistration(e));

interface Caller {
  email: string;
  team: string;
  login: LoginSuccess;
  userId: string;
  sessionId: string;
  hub?: HubTokens;
}

let h: Harness;
let hubUrl: string;
const callers: Record<string, Caller> = {};

const claimsOf = (token: string): { sub: string; sid: string } =>
  JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8'));

async function call(base: string, endpoint: Endpoint, token: string | undefined, body: Record<string, unknown> = {}) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const response =
    endpoint.method === 'GET'
      ? await fetch(`${base}${endpoint.path}?${new URLSearchParams(body as Record<string, string>)}`, { headers })
      : await fetch(base + endpoint.path, {
          method: endpoint.method,
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
  return { status: response.status, text: await response.text() };
}

/** The caller's live context, read as the server's guard reads it; the decision is the contract's. */
async function contextOf(sessionId: string): Promise<AccessContext | null> {
  const row = await teamRepository.findSessionContext(h.db, sessionId);
  if (!row?.scopes?.length) return null;
  const services = row.first_hub_services ?? {};
  return {
    scopes: row.scopes,
    teamType: row.team.team_type,
    organizationType: row.team.organization_type,
    grantSubscription: row.team.benefit_grant_subscription,
    cloud: row.team.business_cloud,
    hubEnabled: Boolean(services.integration?.enabled),
    services,
  };
}

async function expectedOnServer(endpoint: Endpoint, caller: Caller): Promise<Outcome> {
  const ctx = await contextOf(caller.sessionId);
  if (!ctx) return 'refused';
  return endpoint.access && accessDenial(endpoint.access, ctx) ? 'refused' : 'allowed';
}

/** What the call was expected to answer against what it did, for one readable failure list. */
const mismatch = (endpoint: Endpoint, expected: Outcome, got: { status: number; text: string }) =>
  outcomeOf(got.status) === expected
    ? []
    : [`${endpoint.path}: expected ${expected}, got ${got.status} ${got.text.slice(0, 120)}`];

async function signIn(email: string, team: string): Promise<Caller> {
  const login = await h.signIn(email, team);
  const { sub, sid } = claimsOf(login.token.access);
  const caller: Caller = { email, team, login, userId: sub, sessionId: sid };
  if (login.aux_code) {
    const res = await fetch(`${login.aux_code.server_url}/auth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.aux_code.access}` },
      body: JSON.stringify({ team_slug: login.aux_code.team_slug }),
    });
    if (res.status === 200) caller.hub = (await res.json()) as HubTokens;
  }
  return caller;
}

const SCOPE_CALLERS: Record<Scope, string> = {
  super_admin: DEMO_ADMINS.superAdmin,
  admin: DEMO_ADMINS.admin,
  integrator: DEMO_ADMINS.integrator,
  recovery_agent: DEMO_ADMINS.recoveryAgent,
};

beforeAll(async () => {
  h = await startHarness({ hub: true, rateLimitPerMinute: 1_000_000 });
  await seedSecurityDemo(h.db);
  hubUrl = h.hub?.url as string;
  for (const [scope, email] of Object.entries(SCOPE_CALLERS)) callers[scope] = await signIn(email, 'northwind');
  callers.revoked = await signIn(DEMO_ADMINS.superAdmin, 'northwind');
  callers.otherTeam = await signIn(SIGN_IN_DEMO.pia, SIGN_IN_DEMO.team.slug);
  callers.family = await signIn(DEMO_ADMINS.twoTeams, 'sam-family');
  // The revoked caller's sessions end on both programs, as a sign-out or removal ends them.
  const revoked = callers.revoked as Caller;
  await h.db.query("update sessions set revoked_at = now(), revoked_reason = 'test' where id = $1", [revoked.sessionId]);
  if (!revoked.hub) throw new Error('no Hub session for the revoked caller');
  await h.hub?.db.query("update hub_sessions set revoked_at = now(), revoked_reason = 'test' where id = $1", [
    claimsOf(revoked.hub.access).sid,
  ]);
}, 120_000);
afterAll(() => h?.close());

const alex = () => callers.super_admin as Caller;

describe('server: every session call × token state', () => {
  const tokens: Record<string, () => string | undefined> = {
    none: () => undefined,
    forged: () =>
      accessTokens('a-key-the-server-never-had-0123456789').sign(claimsOf(alex().login.token.access), Date.now() + 60_000),
    expired: () => accessTokens(loadServerKeys(h.config).token).sign(claimsOf(alex().login.token.access), Date.now() - 1000),
    revoked: () => (callers.revoked as Caller).login.token.access,
    "the Hub's": () => alex().hub?.access,
  };
  for (const [state, token] of Object.entries(tokens)) {
    test(`${state} token: 401 on every call`, async () => {
      const value = token();
      if (state !== 'none') expect(value).toBeTruthy();
      const wrong: string[] = [];
      for (const endpoint of SESSION_CALLS)
        wrong.push(...mismatch(endpoint, 'unauthenticated', await call(h.url, endpoint, value)));
      expect(wrong).toEqual([]);
    });
  }
});

describe('server: every session call × scope × team type, decided by the contract', () => {
  for (const scope of Object.keys(SCOPE_CALLERS)) {
    test(`${scope} of Northwind`, async () => {
      const caller = callers[scope] as Caller;
      const wrong: string[] = [];
      const seen = new Set<Outcome>();
      for (const endpoint of SESSION_CALLS.filter((e) => !e.path.includes('signout'))) {
        const expected = await expectedOnServer(endpoint, caller);
        seen.add(expected);
        wrong.push(...mismatch(endpoint, expected, await call(h.url, endpoint, caller.login.token.access)));
      }
      expect(wrong).toEqual([]);
      // The rules do tell the scopes apart: every scope is allowed some calls, and all but the super admin refused some.
      expect(seen.has('allowed')).toBe(true);
      if (scope !== 'super_admin') expect(seen.has('refused')).toBe(true);
    });
  }

  test('super admin of a family team', async () => {
    const caller = callers.family as Caller;
    const wrong: string[] = [];
    for (const endpoint of SESSION_CALLS.filter((e) => !e.path.includes('signout'))) {
      const expected = await expectedOnServer(endpoint, caller);
      wrong.push(...mismatch(endpoint, expected, await call(h.url, endpoint, caller.login.token.access)));
    }
    expect(wrong).toEqual([]);
  });
});

describe('server: another team calling with Northwind names and ids', () => {
  /** Northwind rows of every table with a team_id: what another team's calls must never change. */
  async function northwindRows(): Promise<string> {
    const tables = await h.db.query<{ table_name: string }>(
      `select table_name from information_schema.columns
        where table_schema = 'public' and column_name = 'team_id' order by table_name`,
    );
    const parts: string[] = [];
    for (const { table_name } of tables) {
      // The outbox is a queue the forwarder drains meanwhile, and its cursors are how far it got: only
      // rows added to the queue would be a change (checked below).
      if (table_name === 'event_outbox' || table_name === 'event_outbox_cursors') continue;
      const rows = await h.db.query<{ row: string }>(
        `select t::text as row from "${table_name}" t where team_id = (select id from teams where slug = 'northwind') order by 1`,
      );
      parts.push(`${table_name}:${rows.map((r) => r.row).join('|')}`);
    }
    return parts.join('\n');
  }

  /** A body naming Northwind: its slug, and a Northwind id in every field that takes one. */
  async function northwindBody(endpoint: Endpoint): Promise<Record<string, unknown>> {
    const [ids] = await h.db.query<Record<string, string | null>>(
      `select (select id::text from members where team_id = t.id limit 1) as member,
              (select id::text from groups where team_id = t.id limit 1) as "group",
              (select id::text from hubs where team_id = t.id limit 1) as hub,
              (select user_id::text from team_admins where team_id = t.id limit 1) as admin
         from teams t where t.slug = 'northwind'`,
    );
    const shape = (endpoint.input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
    const body: Record<string, unknown> = { team_slug: 'northwind' };
    for (const key of Object.keys(shape)) {
      if (!/(^|_)ids?$/.test(key)) continue;
      const kind = /group/.test(key)
        ? 'group'
        : /hub|credential|aux/.test(key)
          ? 'hub'
          : /admin|user/.test(key)
            ? 'admin'
            : 'member';
      const id = ids?.[kind];
      body[key] = key.endsWith('ids') ? [id] : id;
    }
    return body;
  }

  test("Contoso's super admin: the contract's answer, no Northwind data in any reply, no Northwind row changed", async () => {
    const caller = callers.otherTeam as Caller;
    const before = await northwindRows();
    const wrong: string[] = [];
    for (const endpoint of SESSION_CALLS.filter((e) => !e.path.includes('signout'))) {
      const expected = await expectedOnServer(endpoint, caller);
      const res = await call(h.url, endpoint, caller.login.token.access, await northwindBody(endpoint));
      wrong.push(...mismatch(endpoint, expected, res));
      if (/northwind/i.test(res.text)) wrong.push(`${endpoint.path}: answered with Northwind data: ${res.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
    expect(await northwindRows()).toBe(before);
    // No Northwind event by this caller: neither waiting in the outbox nor already forwarded to the Hub's log.
    const [waiting] = await h.db.query<{ n: number }>(
      `select count(*)::int as n from event_outbox
        where team_id = (select id from teams where slug = 'northwind') and event->>'actor' = $1`,
      [caller.email],
    );
    const forwarded = await h.hub?.db.query<{ n: number }>(
      "select count(*)::int as n from event_log where team_slug = 'northwind' and actor = $1",
      [caller.email],
    );
    expect([waiting?.n, forwarded?.[0]?.n]).toEqual([0, 0]);
  });
});

describe('Hub: every hubAuth call × token state, scope and team', () => {
  const tokens: Record<string, () => string | undefined> = {
    none: () => undefined,
    forged: () =>
      accessTokens('a-key-the-hub-never-had-0123456789', HUB_ACCESS_AUDIENCE).sign(
        claimsOf(alex().hub?.access as string),
        Date.now() + 60_000,
      ),
    expired: () =>
      accessTokens(loadHubTokenSecret(h.hub?.config as never), HUB_ACCESS_AUDIENCE).sign(
        claimsOf(alex().hub?.access as string),
        Date.now() - 1000,
      ),
    revoked: () => (callers.revoked as Caller).hub?.access,
    "the server's": () => alex().login.token.access,
  };
  for (const [state, token] of Object.entries(tokens)) {
    test(`${state} token: 401 on every call`, async () => {
      const value = token();
      if (state !== 'none') expect(value).toBeTruthy();
      const wrong: string[] = [];
      for (const endpoint of HUB_CALLS)
        wrong.push(...mismatch(endpoint, 'unauthenticated', await call(hubUrl, endpoint, value, { team_slug: 'northwind' })));
      expect(wrong).toEqual([]);
    });
  }

  for (const scope of Object.keys(SCOPE_CALLERS)) {
    test(`${scope} of Northwind, own team: the contract's rule in Northwind's context`, async () => {
      const caller = callers[scope] as Caller;
      expect(caller.hub, 'every Northwind admin gets a Hub session').toBeTruthy();
      const wrong: string[] = [];
      const seen = new Set<Outcome>();
      for (const endpoint of HUB_CALLS) {
        // The Hub answers for the team the server vouched for: Northwind's context decides.
        const expected = await expectedOnServer(endpoint, caller);
        seen.add(expected);
        wrong.push(...mismatch(endpoint, expected, await call(hubUrl, endpoint, caller.hub?.access, { team_slug: 'northwind' })));
      }
      expect(wrong).toEqual([]);
      expect(seen.has('allowed')).toBe(true);
      if (scope !== 'super_admin') expect(seen.has('refused')).toBe(true);
    });

    test(`${scope} of Northwind naming another team: refused on every call that names one`, async () => {
      const caller = callers[scope] as Caller;
      const wrong: string[] = [];
      for (const endpoint of HUB_CALLS) {
        const names = 'team_slug' in ((endpoint.input as unknown as { shape?: object }).shape ?? {});
        const res = await call(hubUrl, endpoint, caller.hub?.access, { team_slug: SIGN_IN_DEMO.team.slug });
        if (names) wrong.push(...mismatch(endpoint, 'refused', res));
        else if (outcomeOf(res.status) === 'unauthenticated') wrong.push(`${endpoint.path}: 401 for a live session`);
      }
      expect(wrong).toEqual([]);
    });
  }
});

describe("Hub: every device call × a credential that is not a device's", () => {
  const DEVICE_CALLS = HUB_ENDPOINTS.filter((e) => e.auth === 'device');
  const credentials: Record<string, () => string | undefined> = {
    none: () => undefined,
    forged: () => '5b0c8f5e-2d2a-4a51-9d1e-0d6f1f0a7a11.not-a-device-secret',
    "a Hub session's": () => alex().hub?.access,
    "the server's": () => alex().login.token.access,
  };
  for (const [state, credential] of Object.entries(credentials)) {
    test(`${state} credential: 401 on every call`, async () => {
      expect(DEVICE_CALLS.length).toBeGreaterThan(0);
      const wrong: string[] = [];
      for (const endpoint of DEVICE_CALLS)
        wrong.push(
          ...mismatch(endpoint, 'unauthenticated', await call(hubUrl, endpoint, credential(), { team_slug: 'northwind' })),
        );
      expect(wrong).toEqual([]);
    });
  }
});

describe('Hub: the call that deletes the registration, last (it ends every Hub session)', () => {
  test('refused to every scope its rule refuses; then allowed to those it allows', async () => {
    expect(HUB_TEARDOWN_CALLS.length).toBe(1);
    const plan: { caller: Caller; endpoint: Endpoint; expected: Outcome }[] = [];
    for (const endpoint of HUB_TEARDOWN_CALLS)
      for (const scope of Object.keys(SCOPE_CALLERS)) {
        const caller = callers[scope] as Caller;
        plan.push({ caller, endpoint, expected: await expectedOnServer(endpoint, caller) });
      }
    // Every refusal first, then one allowed call (after which nobody has a Hub session).
    plan.sort((a, b) => Number(a.expected === 'allowed') - Number(b.expected === 'allowed'));
    const wrong: string[] = [];
    for (const { caller, endpoint, expected } of plan.filter((p, i) => p.expected !== 'allowed' || i === plan.length - 1)) {
      wrong.push(...mismatch(endpoint, expected, await call(hubUrl, endpoint, caller.hub?.access, { team_slug: 'northwind' })));
    }
    expect(wrong).toEqual([]);
  });
});
