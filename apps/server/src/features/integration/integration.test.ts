import { type AccessRule, defineEndpoint, type HubServer, RULES } from '@latchkey/contracts';
import { registerEndpoint } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createGuard } from '../../http/guard.ts';
import { loadServerKeys } from '../../platform/keys.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { mintTestSetupKey, startTestHub, type TestHub } from '../../test/hub-process.ts';
import { createSessionsService } from '../auth/index.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { sessionContexts } from '../team/index.ts';

/** Calls guarded by the Hub-service rules: what the services' own calls will be gated by. */
const probe = (name: string, access: AccessRule) =>
  defineEndpoint({
    name: `probe-${name}`,
    program: 'server',
    method: 'POST',
    path: `/test/probe/${name}/`,
    auth: 'session',
    access,
    summary: `Probe for the ${name} rule.`,
    input: z.object({}),
    output: z.object({}),
  });
const PROBES = { audit: probe('audit', RULES.audit), recoveryAdmins: probe('recovery-admins', RULES.recoveryAdmins) };

let h: Harness;
let familyHub: TestHub;
let oldHub: TestHub;
const tokens = new Map<string, string>();

beforeAll(async () => {
  h = await startHarness({
    hub: true,
    async beforeListen(app, db, config) {
      const secret = loadServerKeys(config).token;
      const sessions = createSessionsService(db, secret, {
        accessTtlSeconds: 300,
        idleMinutes: 60,
        maxHours: 12,
        refreshGraceSeconds: 10,
      });
      const guard = createGuard({ verifyAccess: (token) => sessions.verifyAccess(token), sessionContext: sessionContexts(db) });
      for (const endpoint of Object.values(PROBES)) registerEndpoint(app, endpoint, guard, async () => ({}));
    },
  });
  familyHub = await startTestHub();
  oldHub = await startTestHub({ version: '2.0' });
  for (const [role, email] of Object.entries(DEMO_ADMINS)) tokens.set(role, (await h.signIn(email)).token.access);
  tokens.set('family', (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
});
afterAll(async () => {
  await h?.close();
  await familyHub?.close();
  await oldHub?.close();
});

const token = (who: string) => tokens.get(who) as string;
const post = <T = Record<string, unknown>>(path: string, body: unknown, who: string) => h.post<T>(path, body, token(who));
const device = { browser: 'vitest' };

/** What the console does: a credential on the server (nothing secret in it). */
async function newCredential(who: string) {
  const added = await post<{ credential_id: string }>('/api/v1/credentials/add/', { name: 'Office Hub' }, who);
  expect(added.status).toBe(200);
  return added.body.credential_id;
}

/** The setup dialog: the Hub address and, for a team new to that Hub, the operator's setup key. */
const setup = (credential_id: string, server_url: string, who = 'family', setup_key?: string) =>
  post<HubServer>(
    '/api/v1/credentials/setup/',
    { device, latchkey_hosted_hub: { credential_id, server_url, ...(setup_key ? { setup_key } : {}) } },
    who,
  );

describe('access (super admin or integrator)', () => {
  const calls: [string, unknown][] = [
    ['/api/v1/credentials/', {}],
    ['/api/v1/credentials/add/', { name: 'x' }],
    ['/api/v1/credentials/update/', { credential_id: 'demo-hub', name: 'x' }],
    ['/api/v1/credentials/delete/', { credential_id: 'nope' }],
    ['/api/v1/credentials/setup/', { device, latchkey_hosted_hub: { credential_id: 'nope', server_url: 'https://hub.example' } }],
    ['/api/v1/aux/hosting/preferences/', {}],
    ['/api/v1/policy/team/enable/aux/services/', { credential_id: 'demo-hub', services: ['enable_audit'] }],
    ['/api/v1/policy/team/disable/aux/services/', { services: ['enable_audit'] }],
  ];

  test('admin and recovery agent are refused every call', async () => {
    for (const who of ['admin', 'recoveryAgent']) {
      for (const [path, body] of calls) {
        const res = await post(path, body, who);
        expect(res.status, `${who} ${path}`).toBe(403);
        expect(res.body.description).toBe('Not allowed (role).');
      }
    }
  });

  test('the integrator and the super admin may', async () => {
    for (const who of ['integrator', 'superAdmin']) {
      expect((await post('/api/v1/credentials/', {}, who)).status).toBe(200);
      expect((await post('/api/v1/aux/hosting/preferences/', {}, who)).status).toBe(200);
    }
  });
});

describe('credentials', () => {
  test('add, list and rename show the integrator no signing material at all', async () => {
    const added = await post<{ credential_id: string; server_url: null }>(
      '/api/v1/credentials/add/',
      { name: '  Spare  ' },
      'integrator',
    );
    expect(added.status).toBe(200);
    // Exactly the connection's description: nothing that could sign a grant.
    expect(Object.keys(added.body).sort()).toEqual(['created_at', 'credential_id', 'hub_version', 'name', 'server_url']);
    expect(added.body).toMatchObject({ name: 'Spare', server_url: null, hub_version: null });
    const list = await post<{ credentials: { credential_id: string; name: string }[] }>('/api/v1/credentials/', {}, 'integrator');
    expect(list.body.credentials.map((c) => c.name)).toEqual(['Hub', 'Spare']);
    for (const c of list.body.credentials)
      expect(Object.keys(c).sort()).toEqual(['created_at', 'credential_id', 'hub_version', 'name', 'server_url']);
    const { d } = h.serverKey.export({ format: 'jwk' });
    for (const text of [added.text, list.text]) {
      expect(text).not.toMatch(/secret|PRIVATE KEY/i);
      expect(text).not.toContain(String(d));
    }
    const renamed = await post(
      '/api/v1/credentials/update/',
      { credential_id: added.body.credential_id, name: 'Backup' },
      'integrator',
    );
    expect(renamed.body).toMatchObject({ name: 'Backup' });
    expect(renamed.text).not.toMatch(/secret|PRIVATE KEY/i);
    // Another team's admin cannot touch it.
    expect((await post('/api/v1/credentials/delete/', { credential_id: added.body.credential_id }, 'family')).status).toBe(404);
    const deleted = await post('/api/v1/credentials/delete/', { credential_id: added.body.credential_id }, 'integrator');
    expect(deleted.body).toEqual({ code: 'credential_deleted' });
    expect((await post('/api/v1/credentials/delete/', { credential_id: added.body.credential_id }, 'integrator')).status).toBe(
      404,
    );
  });

  test('an empty name is refused', async () => {
    const res = await post('/api/v1/credentials/add/', { name: '   ' }, 'integrator');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_input');
  });
});

describe('setup (spec §5 https rule, the server asks the Hub)', () => {
  test('an address must parse and be https (loopback http only outside production)', async () => {
    const added = await post<{ credential_id: string }>('/api/v1/credentials/add/', { name: 'x' }, 'family');
    for (const [url, problem] of [
      ['http://hub.example.com', 'https_required'],
      ['not a url', 'invalid url'],
      ['ftp://127.0.0.1', 'https_required'],
    ]) {
      const res = await setup(added.body.credential_id, url as string);
      expect(res.status, url).toBe(400);
      expect(res.body).toMatchObject({
        code: 'invalid_input',
        issues: [{ path: 'latchkey_hosted_hub.server_url', message: problem }],
      });
    }
    await post('/api/v1/credentials/delete/', { credential_id: added.body.credential_id }, 'family');
  });

  test('a team new to the Hub needs a setup key for it; a Hub that does not answer is aux_server_not_connected', async () => {
    const added = await post<{ credential_id: string }>('/api/v1/credentials/add/', { name: 'x' }, 'family');
    const without = await setup(added.body.credential_id, familyHub.url);
    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ code: 'setup_key_invalid', message_key: 'errors.setup_key_invalid' });
    // A key the operator minted for another team registers nothing for this one.
    const otherTeams = await setup(added.body.credential_id, familyHub.url, 'family', mintTestSetupKey('northwind'));
    expect(otherTeams.status).toBe(400);
    const expired = await setup(
      added.body.credential_id,
      familyHub.url,
      'family',
      mintTestSetupKey('sam-family', 30, Date.now() - 31 * 60_000),
    );
    expect(expired.status).toBe(400);
    expect(await familyHub.db.query('select 1 from registrations')).toEqual([]);
    const down = await setup(added.body.credential_id, 'http://127.0.0.1:1');
    expect(down.status).toBe(502);
    expect(down.body).toMatchObject({
      code: 'aux_server_not_connected',
      description: 'The Hub at http://127.0.0.1:1 did not answer.',
    });
    await post('/api/v1/credentials/delete/', { credential_id: added.body.credential_id }, 'family');
  });
});

describe('services follow the Hub', () => {
  let credential = '';

  test('without a set-up Hub, toggles answer auth_not_set and the Hub services are closed', async () => {
    const res = await post('/api/v1/policy/team/disable/aux/services/', { services: ['enable_audit'] }, 'family');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('auth_not_set');
    expect((await post('/api/v1/aux/services/', {}, 'family')).body).toEqual({ servers: [] });
    expect((await post('/test/probe/audit/', {}, 'family')).body.description).toBe('Not allowed (service).');
  });

  test('setup connects the Hub with integration on', async () => {
    credential = await newCredential('family');
    const res = await setup(credential, `${familyHub.url}/some/path`, 'family', mintTestSetupKey('sam-family'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      server_url: familyHub.url,
      credential_id: credential,
      hub_version: '2.2.0',
      reachable: true,
      services: { integration: { enabled: true, status: 2 } },
    });
    const list = await post<{ credentials: { server_url: string }[] }>('/api/v1/credentials/', {}, 'family');
    expect(list.body.credentials.map((c) => c.server_url)).toEqual([familyHub.url]);
  });

  test('enable switches services on at the Hub first, then here; the guard follows', async () => {
    expect((await post('/test/probe/audit/', {}, 'family')).status).toBe(403);
    const res = await post<{ code: string; server: HubServer }>(
      '/api/v1/policy/team/enable/aux/services/',
      { credential_id: credential, services: ['enable_audit', 'enable_recovery', 'enable_secret_sharing'] },
      'family',
    );
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('services_updated');
    const active = { enabled: true, status: 2 };
    expect(res.body.server.services).toEqual({ integration: active, audit: active, recovery: active, secret_sharing: active });
    const [row] = await familyHub.db.query<{ services: string[] }>('select services from registrations');
    expect(row?.services).toEqual(['audit', 'recovery', 'secret_sharing']);
    expect((await post('/test/probe/audit/', {}, 'family')).status).toBe(200);
    expect((await post('/test/probe/recovery-admins/', {}, 'family')).status).toBe(200);
  });

  test('disable switches off at the Hub and here', async () => {
    const res = await post<{ server: HubServer }>(
      '/api/v1/policy/team/disable/aux/services/',
      { services: ['enable_secret_sharing'] },
      'family',
    );
    expect(res.body.server.services.secret_sharing).toEqual({ enabled: false, status: 0 });
    const [row] = await familyHub.db.query<{ services: string[] }>('select services from registrations');
    expect(row?.services).toEqual(['audit', 'recovery']);
  });

  test('a Hub that stops: toggles answer aux_server_not_connected; the live state turns to error and the guard follows', async () => {
    await familyHub.stop();
    const res = await post(
      '/api/v1/policy/team/enable/aux/services/',
      { credential_id: credential, services: ['enable_secret_sharing'] },
      'family',
    );
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('aux_server_not_connected');
    const live = await post<{ servers: HubServer[] }>('/api/v1/aux/services/', {}, 'family');
    expect(live.body.servers[0]).toMatchObject({
      reachable: false,
      services: {
        integration: { enabled: true, status: 3 },
        audit: { enabled: true, status: 3 },
        recovery: { enabled: true, status: 3 },
      },
    });
    // Status 2 is required for recovery admins; the audit rule only needs the service switched on.
    expect((await post('/test/probe/recovery-admins/', {}, 'family')).body.description).toBe('Not allowed (service_status).');
    expect((await post('/test/probe/audit/', {}, 'family')).status).toBe(200);
    // Back up on the same address: the next look finds it running again.
    await familyHub.restart();
    const again = await post<{ servers: HubServer[] }>('/api/v1/aux/services/', {}, 'family');
    expect(again.body.servers[0]?.services.recovery).toEqual({ enabled: true, status: 2 });
    expect((await post('/test/probe/recovery-admins/', {}, 'family')).status).toBe(200);
  });

  test('policy/team/service reads one service as the guards do, for any admin', async () => {
    const res = await post('/api/v1/policy/team/service/', { service: 'recovery' }, 'family');
    expect(res.body).toEqual({ service: 'recovery', enabled: true, status: 2, hub_version: '2.2.0' });
    const demo = await post('/api/v1/policy/team/service/', { service: 'audit' }, 'recoveryAgent');
    expect(demo.body).toEqual({ service: 'audit', enabled: true, status: 2, hub_version: '2.2.0' });
    expect((await post('/api/v1/policy/team/service/', { service: 'nope' }, 'admin')).status).toBe(400);
  });

  test('disabling integration switches every service off', async () => {
    const res = await post<{ server: HubServer }>(
      '/api/v1/policy/team/disable/aux/services/',
      { services: ['enable_integration'] },
      'family',
    );
    expect(Object.values(res.body.server.services).every((s) => !s?.enabled)).toBe(true);
    const [row] = await familyHub.db.query<{ services: string[] }>('select services from registrations');
    expect(row?.services).toEqual([]);
  });
});

describe('versions', () => {
  test('an older Hub refuses a service it does not run: not_allowed with its message key', async () => {
    const credential = await newCredential('superAdmin');
    // The first Hub of Northwind is the demo one; this credential is set up second.
    expect((await setup(credential, oldHub.url, 'superAdmin', mintTestSetupKey('northwind'))).body).toMatchObject({
      hub_version: '2.0',
    });
    const res = await post(
      '/api/v1/policy/team/enable/aux/services/',
      { credential_id: credential, services: ['enable_audit'] },
      'superAdmin',
    );
    expect(res.status).toBe(409);
    // The Hub's own message key travels through the server to the console.
    expect(res.body).toEqual({
      code: 'not_allowed',
      // Never the Hub's own text (a remote body is not reflected): its catalogue key and values only.
      description: 'The Hub refused.',
      message_key: 'errors.hub_lacks_services',
      message_values: { version: '2.0', missing: 'audit' },
    });
    const ok = await post(
      '/api/v1/policy/team/enable/aux/services/',
      { credential_id: credential, services: ['enable_recovery'] },
      'superAdmin',
    );
    expect(ok.status).toBe(200);
  });
});

describe('hosting preferences', () => {
  test('reads not_set, then keeps what an integrator chooses', async () => {
    expect((await post('/api/v1/aux/hosting/preferences/', {}, 'integrator')).body).toEqual({
      hosting: 'not_set',
      product: 'latchkey_hosted_hub',
    });
    await post('/api/v1/aux/hosting/preferences/', { hosting: 'self_hosted' }, 'integrator');
    expect((await post('/api/v1/aux/hosting/preferences/', {}, 'superAdmin')).body).toMatchObject({ hosting: 'self_hosted' });
    expect((await post('/api/v1/aux/hosting/preferences/', { hosting: 'cloud' }, 'integrator')).status).toBe(400);
  });

  test('with a Hub connected, not_set is refused with its message key and the preference is kept', async () => {
    // The family team connected its Hub above ("services follow the Hub").
    expect((await post<HubServer[]>('/api/v1/aux/services/', {}, 'family')).body).toMatchObject({
      servers: [expect.objectContaining({ server_url: familyHub.url })],
    });
    await post('/api/v1/aux/hosting/preferences/', { hosting: 'self_hosted' }, 'family');
    const refused = await post('/api/v1/aux/hosting/preferences/', { hosting: 'not_set' }, 'family');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'not_allowed', message_key: 'errors.hosting_hub_connected' });
    expect((await post('/api/v1/aux/hosting/preferences/', {}, 'family')).body.hosting).toBe('self_hosted');
  });
});
