import { type HubState, type HubTokens, SERVER_CALL_AUDIENCE } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL, createHubDb, type RunningHub, SECRET, signGrant, startHub, TEAM } from '../../testing/hub-fixture.ts';
import { requireService } from './service-gate.ts';

const SETUP_KEY = 'operator-setup-key-0123456789';
let db: Db;
let hub: RunningHub;
let oldHub: RunningHub;
let closedHub: RunningHub;

beforeAll(async () => {
  db = await createHubDb({ services: [] });
  hub = await startHub(db, { HUB_SETUP_KEY: SETUP_KEY });
  oldHub = await startHub(db, { HUB_VERSION: '2.0' });
  closedHub = await startHub(db);
});
afterAll(async () => {
  for (const h of [hub, oldHub, closedHub]) await h.app.close();
  await db.close();
});

/** Signs a call exactly as the licence server does (apps/server/src/features/integration/hub-client.ts). */
const serverToken = (o: { kid?: string; secret?: string; team?: string } = {}) =>
  new SignJWT({ team_slug: o.team ?? TEAM })
    .setProtectedHeader({ alg: 'HS256', kid: o.kid ?? CREDENTIAL })
    .setAudience(SERVER_CALL_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('60s')
    .sign(new TextEncoder().encode(o.secret ?? SECRET));

const asServer = async (target: RunningHub, path: string, body: Record<string, unknown>, o = {}) =>
  target.post(path, { team_slug: TEAM, ...body }, { authorization: `Bearer ${await serverToken(o)}` });

async function hubSession(
  scopes: ('super_admin' | 'admin' | 'integrator' | 'recovery_agent')[],
  team = TEAM,
  kid = CREDENTIAL,
  secret = SECRET,
) {
  const grant = await signGrant({ scopes, teamSlug: team, kid, secret });
  const res = await hub.post('/auth/token/', { team_slug: team, device: {} }, { authorization: `Bearer ${grant}` });
  expect(res.status).toBe(200);
  return ((await res.json()) as HubTokens).access;
}

describe('registering through the connector', () => {
  const register = (target: RunningHub, team: string, credential: string, setupKey = SETUP_KEY) =>
    target.post('/api/v1/integrate/connector/', {
      team_slug: team,
      register: { credential_id: credential, secret: 's'.repeat(40), setup_key: setupKey },
    });

  it('needs the operator setup key', async () => {
    const wrong = await register(hub, 'acme', 'cred-acme', 'not-the-key');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'setup_key_invalid' });
    const closed = await register(closedHub, 'acme', 'cred-acme');
    expect(closed.status).toBe(409);
    expect(await closed.json()).toMatchObject({ code: 'registration_closed' });
    expect(await (await hub.post('/api/v1/integrate/connector/', { team_slug: 'acme' })).json()).toMatchObject({
      registered: false,
    });
  });

  it('registers a team with the key, and never moves a credential to another team', async () => {
    const ok = await register(hub, 'acme', 'cred-acme');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ registered: true, version: '2.2.0' });
    const stolen = await register(hub, 'evil', 'cred-acme');
    expect(stolen.status).toBe(409);
    expect(await stolen.json()).toMatchObject({ code: 'not_allowed' });
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

  it('refuses a wrong secret, an unknown credential and another team', async () => {
    expect((await asServer(hub, '/api/v1/integrate/verify/', {}, { secret: 'x'.repeat(40) })).status).toBe(401);
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
