import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { HubState, HubTokens } from '@latchkey/contracts';
import { type Db, publicJwkOf, signCall } from '@latchkey/runtime';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CREDENTIAL,
  createHubDb,
  HUB_KEY,
  HUB_SETUP_SECRET,
  postSigned,
  type RunningHub,
  SERVER_KEY,
  signGrant,
  startHub,
  TEAM,
} from '../../testing/hub-fixture.ts';
import { mintSetupKey } from '../registrations/index.ts';
import { requireService } from './service-gate.ts';

let db: Db;
let hub: RunningHub;
let oldHub: RunningHub;

beforeAll(async () => {
  db = await createHubDb({ services: [] });
  hub = await startHub(db);
  oldHub = await startHub(db, { HUB_VERSION: '2.0' });
});
afterAll(async () => {
  for (const h of [hub, oldHub]) await h.app.close();
  await db.close();
});

const asServer = (
  target: RunningHub,
  path: string,
  body: Record<string, unknown>,
  o: { key?: KeyObject; kid?: string; team?: string } = {},
) => postSigned(target, path, { team_slug: o.team ?? TEAM, ...body }, o);

async function hubSession(scopes: ('super_admin' | 'admin' | 'integrator' | 'recovery_agent')[], team = TEAM, kid = CREDENTIAL) {
  const grant = await signGrant({ scopes, teamSlug: team, kid });
  const res = await hub.post('/auth/token/', { team_slug: team, device: {} }, { authorization: `Bearer ${grant}` });
  expect(res.status).toBe(200);
  return ((await res.json()) as HubTokens).access;
}

const REGISTER = '/api/v1/integrate/register/';
const newServer = () => generateKeyPairSync('ed25519').privateKey;

/** A server's registration call: signed with `signer` (its own key unless said), offering `key`. */
function register(team: string, credential: string, o: { key: KeyObject; signer?: KeyObject; setupKey?: string | undefined }) {
  const body = {
    team_slug: team,
    credential_id: credential,
    server_key: publicJwkOf(o.key),
    server_url: 'http://127.0.0.1:9/',
    ...(o.setupKey ? { setup_key: o.setupKey } : {}),
  };
  return postSigned(hub, REGISTER, body, { key: o.signer ?? o.key, kid: credential });
}

describe('registration (server to Hub, signed)', () => {
  it('registers a new team with a setup key for that team, and answers with the Hub key', async () => {
    const acme = newServer();
    const res = await register('acme', 'cred-acme', { key: acme, setupKey: mintSetupKey(HUB_SETUP_SECRET, 'acme') });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ hub_key: publicJwkOf(HUB_KEY), version: '2.2.0' });
    expect(await (await hub.post('/api/v1/integrate/connector/', { team_slug: 'acme' })).json()).toMatchObject({
      registered: true,
    });
  });

  it('refuses a setup key for another team, a used one, an expired one, a forged one, and none', async () => {
    const key = newServer();
    const refused = async (setupKey: string | undefined) => {
      const res = await register('globex', 'cred-globex', { key, setupKey });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'setup_key_invalid' });
    };
    await refused(mintSetupKey(HUB_SETUP_SECRET, 'initech'));
    await refused(mintSetupKey(HUB_SETUP_SECRET, 'globex', 30, Date.now() - 31 * 60_000));
    await refused(mintSetupKey('another-hub-setup-secret-0123456789abcdef', 'globex'));
    await refused(undefined);
    const good = mintSetupKey(HUB_SETUP_SECRET, 'globex');
    expect((await register('globex', 'cred-globex', { key, setupKey: good })).status).toBe(200);
    // Spent: the same key cannot register a second time, not even for its own team.
    const again = await register('globex', 'cred-globex-2', { key: newServer(), setupKey: good });
    expect(again.status).toBe(409);
    const other = await register('hooli', 'cred-hooli', { key: newServer(), setupKey: good });
    expect(other.status).toBe(401);
  });

  it('cross-tenant: a setup key alone never adds a server to an already registered team', async () => {
    const attacker = newServer();
    // The attacker holds a valid setup key — for its own team — and targets Northwind.
    const ownKey = mintSetupKey(HUB_SETUP_SECRET, 'evil');
    const res = await register(TEAM, 'cred-evil', { key: attacker, setupKey: ownKey });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'not_allowed', message_key: 'errors.hub_team_needs_proof' });
    // Even a setup key minted for Northwind itself is not enough once Northwind is registered.
    const northwindKey = mintSetupKey(HUB_SETUP_SECRET, TEAM);
    expect((await register(TEAM, 'cred-evil', { key: attacker, setupKey: northwindKey })).status).toBe(409);
    const grant = await signGrant({ key: attacker, kid: 'cred-evil', scopes: ['super_admin'] });
    expect((await hub.post('/auth/token/', { team_slug: TEAM, device: {} }, { authorization: `Bearer ${grant}` })).status).toBe(
      403,
    );
  });

  it('a second credential of a registered team needs the proof of its registered server', async () => {
    const res = await register(TEAM, 'cred-northwind-2', { key: SERVER_KEY });
    expect(res.status).toBe(200);
    const other = await register(TEAM, 'cred-northwind-3', { key: newServer(), signer: newServer() });
    expect(other.status).toBe(409);
  });

  it('never moves a credential to another team', async () => {
    const res = await register('contoso', CREDENTIAL, { key: newServer(), setupKey: mintSetupKey(HUB_SETUP_SECRET, 'contoso') });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'not_allowed' });
  });

  it('refuses a registration not signed by the key it offers', async () => {
    const res = await register('umbrella', 'cred-umbrella', {
      key: newServer(),
      signer: newServer(),
      setupKey: mintSetupKey(HUB_SETUP_SECRET, 'umbrella'),
    });
    expect(res.status).toBe(401);
  });
});

describe('the signed channel', () => {
  const VERIFY = '/api/v1/integrate/verify/';
  const raw = (token: string, json: string, path = VERIFY) =>
    fetch(hub.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: json,
    });

  it('refuses unsigned, wrongly signed, replayed, stale and altered calls', async () => {
    expect((await hub.post(VERIFY, { team_slug: TEAM })).status).toBe(401);
    expect((await asServer(hub, VERIFY, {}, { key: newServer() })).status).toBe(401);
    // HS256 with any secret, or alg none: not a header this Hub accepts.
    const hs = await new SignJWT({ team_slug: TEAM, aud: VERIFY })
      .setProtectedHeader({ alg: 'HS256', kid: CREDENTIAL })
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(new TextEncoder().encode('x'.repeat(40)));
    expect((await raw(hs, JSON.stringify({ team_slug: TEAM }))).status).toBe(401);

    const body = { team_slug: TEAM };
    const { token, json } = signCall(SERVER_KEY, CREDENTIAL, VERIFY, TEAM, body);
    expect((await raw(token, json)).status).toBe(200);
    expect((await raw(token, json)).status).toBe(401);

    const altered = signCall(SERVER_KEY, CREDENTIAL, '/api/v1/integrate/services/', TEAM, { team_slug: TEAM, enabled: [] });
    expect(
      (await raw(altered.token, JSON.stringify({ team_slug: TEAM, enabled: ['audit'] }), '/api/v1/integrate/services/')).status,
    ).toBe(401);
    // Signed for another endpoint: not accepted here.
    const elsewhere = signCall(SERVER_KEY, CREDENTIAL, '/api/v1/integrate/services/', TEAM, body);
    expect((await raw(elsewhere.token, elsewhere.json)).status).toBe(401);

    const realNow = Date.now;
    Date.now = () => realNow() - 5 * 60_000;
    let stale: { token: string; json: string };
    try {
      stale = signCall(SERVER_KEY, CREDENTIAL, VERIFY, TEAM, body);
    } finally {
      Date.now = realNow;
    }
    expect((await raw(stale.token, stale.json)).status).toBe(401);
  });
});

describe('calls from the licence server', () => {
  it('verify answers what the Hub runs for a correctly signed call', async () => {
    const res = await asServer(hub, '/api/v1/integrate/verify/', {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      version: '2.2.0',
      offered: ['integration', 'audit', 'audit_logs', 'recovery', 'secret_sharing'],
      enabled: [],
    });
  });

  it('refuses another key, an unknown credential and another team', async () => {
    expect((await asServer(hub, '/api/v1/integrate/verify/', {}, { key: newServer() })).status).toBe(401);
    const unknown = await asServer(hub, '/api/v1/integrate/verify/', {}, { kid: 'nope' });
    expect(unknown.status).toBe(403);
    expect(await unknown.json()).toMatchObject({ code: 'hub_not_registered' });
    expect((await asServer(hub, '/api/v1/integrate/verify/', {}, { team: 'acme' })).status).toBe(401);
    expect((await hub.post('/api/v1/integrate/verify/', { team_slug: TEAM })).status).toBe(401);
  });

  it('switches services on and off, and the service gate follows', async () => {
    await expect(requireService(db, TEAM, 'audit')).rejects.toMatchObject({
      code: 'service_disabled',
      status: 409,
      messageKey: 'errors.service_disabled',
      messageValues: { service: 'audit' },
    });
    const on = await asServer(hub, '/api/v1/integrate/services/', { enabled: ['audit', 'recovery'] });
    expect(((await on.json()) as HubState).enabled).toEqual(['audit', 'recovery']);
    await expect(requireService(db, TEAM, 'audit')).resolves.toBeUndefined();
    await expect(requireService(db, TEAM, 'secret_sharing')).rejects.toMatchObject({ code: 'service_disabled' });
    const off = await asServer(hub, '/api/v1/integrate/services/', { enabled: ['recovery'] });
    expect(((await off.json()) as HubState).enabled).toEqual(['recovery']);
    await expect(requireService(db, TEAM, 'audit')).rejects.toMatchObject({ code: 'service_disabled' });
  });

  it('an older Hub refuses a service its version does not run, with not_allowed', async () => {
    const res = await asServer(oldHub, '/api/v1/integrate/services/', { enabled: ['audit'] });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: 'not_allowed',
      description: 'This Hub (version 2.0) does not run: audit.',
      message_key: 'errors.hub_lacks_services',
      message_values: { version: '2.0', missing: 'audit' },
    });
  });
});

describe('console calls', () => {
  it('any admin reads the enabled services', async () => {
    const res = await hub.post(
      '/api/v1/hub/services/',
      { team_slug: TEAM },
      { authorization: `Bearer ${await hubSession(['recovery_agent'])}` },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ version: '2.2.0', enabled: ['recovery'] });
  });

  it('delete connector: admin and recovery agent are refused, the integrator removes the registration', async () => {
    for (const scopes of [['admin'], ['recovery_agent']] as const) {
      const token = await hubSession([...scopes]);
      const res = await hub.post('/delete/connector/', { team_slug: TEAM, device: {} }, { authorization: `Bearer ${token}` });
      expect(res.status, scopes[0]).toBe(403);
    }
    const integrator = await hubSession(['integrator']);
    const res = await hub.post('/delete/connector/', { team_slug: TEAM, device: {} }, { authorization: `Bearer ${integrator}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: 'connector_deleted' });
    expect(await (await hub.post('/api/v1/integrate/connector/', { team_slug: TEAM })).json()).toMatchObject({
      registered: false,
    });
    // The registration's sessions ended with it.
    expect((await hub.post('/api/v1/hub/services/', { team_slug: TEAM }, { authorization: `Bearer ${integrator}` })).status).toBe(
      401,
    );
  });
});
