import { type AccessRule, defineEndpoint, RULES, type Scope, Team } from '@latchkey/contracts';
import { registerEndpoint } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { requireCaller } from '../../http/caller.ts';
import { createGuard } from '../../http/guard.ts';
import { loadServerKeys } from '../../platform/keys.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { createSessionsService } from '../auth/index.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { sessionContexts } from './session-contexts.ts';

/** Throwaway calls with restrictive rules: no served call refuses any admin yet. */
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
    output: z.object({ scopes: z.array(z.string()) }),
  });
const PROBES = {
  billing: probe('billing', RULES.billing),
  people: probe('people', RULES.people),
  recoveryAdmins: probe('recovery-admins', RULES.recoveryAdmins),
};

let h: Harness;
const tokens = new Map<string, string>();
beforeAll(async () => {
  h = await startHarness({
    hub: true,
    async beforeListen(app, db, config) {
      // The app's guard over the same database and signing key.
      const secret = loadServerKeys(config).token;
      const sessions = createSessionsService(db, secret, {
        accessTtlSeconds: 300,
        idleMinutes: 60,
        maxHours: 12,
        refreshGraceSeconds: 10,
      });
      const guard = createGuard({ verifyAccess: (token) => sessions.verifyAccess(token), sessionContext: sessionContexts(db) });
      for (const endpoint of Object.values(PROBES)) {
        registerEndpoint(app, endpoint, guard, async ({ ctx }) => ({ scopes: requireCaller(ctx).scopes }));
      }
    },
  });
  for (const [role, email] of Object.entries(DEMO_ADMINS)) tokens.set(role, (await h.signIn(email)).token.access);
  tokens.set('family', (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
});
afterAll(() => h?.close());

const token = (who: string) => {
  const t = tokens.get(who);
  if (!t) throw new Error(`no session for ${who}`);
  return t;
};

const EXPECTED_SCOPES: Record<string, Scope[]> = {
  superAdmin: ['super_admin'],
  admin: ['admin'],
  integrator: ['integrator'],
  recoveryAgent: ['recovery_agent'],
  twoTeams: ['admin'],
  family: ['super_admin'],
};

describe('every admin reaches the any-admin calls', () => {
  for (const who of Object.keys(EXPECTED_SCOPES)) {
    test(who, async () => {
      for (const path of [
        '/api/v1/team/info/',
        '/api/v1/team/admin/scope/',
        '/api/v1/team/admin/info/',
        '/api/v1/team/all/',
        '/api/v1/aux/services/',
      ]) {
        const res = await h.post(path, {}, token(who));
        expect(res.status, `${who} ${path}: ${res.text}`).toBe(200);
      }
      const scope = await h.post('/api/v1/team/admin/scope/', {}, token(who));
      expect(scope.body).toEqual({ scope: EXPECTED_SCOPES[who] });
    });
  }
});

describe('team calls', () => {
  test('team info describes the signed-in team', async () => {
    const res = await h.post('/api/v1/team/info/', {}, token('superAdmin'));
    const team = Team.strict().parse(res.body);
    expect(team).toMatchObject({
      team_name: 'Northwind Traders',
      team_slug: 'northwind',
      team_type: 'organization',
      organization_type: 'enterprise',
      bill_state: 'billed',
      valid_till: '2027-06-30',
    });
    expect(team.total_users).toBeGreaterThan(150);
    expect(team.total_users).toBeLessThan(250);
    // Two members joined and one left: the total counts only the current ones.
    const stamp = Date.now().toString(36);
    for (const [who, gone] of [
      ['a', false],
      ['b', false],
      ['c', true],
    ] as const) {
      await h.db.query(
        `insert into members (team_id, email, deboarded_at)
         values ((select id from teams where slug = 'northwind'), $1, case when $2 then now() end)`,
        [`${who}.${stamp}@northwind.example`, gone],
      );
    }
    try {
      const after = (await h.post('/api/v1/team/info/', {}, token('superAdmin'))).body as { total_users: number };
      expect(after.total_users).toBe(team.total_users + 2);
    } finally {
      await h.db.query('delete from members where email like $1', [`%.${stamp}@northwind.example`]);
    }
  });

  test('a family-team session reads team_type family', async () => {
    const res = await h.post('/api/v1/team/info/', {}, token('family'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ team_slug: 'sam-family', team_type: 'family', bill_state: 'trial', total_users: 3 });
  });

  test('admin info names the signed-in admin', async () => {
    const res = await h.post('/api/v1/team/admin/info/', {}, token('integrator'));
    expect(res.body).toEqual({ user_email: DEMO_ADMINS.integrator, user_name: 'Ivy Chen' });
  });

  test('all teams lists every team the person administers', async () => {
    const both = await h.post('/api/v1/team/all/', {}, token('twoTeams'));
    expect(both.body).toEqual({
      teams: [
        { team_slug: 'northwind', team_name: 'Northwind Traders', team_type: 'organization' },
        { team_slug: 'sam-family', team_name: 'The Okafor Family', team_type: 'family' },
      ],
    });
    const one = await h.post('/api/v1/team/all/', {}, token('admin'));
    expect(one.body).toEqual({ teams: [{ team_slug: 'northwind', team_name: 'Northwind Traders', team_type: 'organization' }] });
  });

  test('aux services lists the Hub and its services, never its secret', async () => {
    const res = await h.post('/api/v1/aux/services/', {}, token('integrator'));
    const active = { enabled: true, status: 2 };
    expect(res.body).toEqual({
      servers: [
        {
          server_url: h.hub?.url,
          credential_id: 'demo-hub',
          hub_version: '2.2.0',
          reachable: true,
          services: { integration: active, audit: active, audit_logs: active, recovery: active, secret_sharing: active },
        },
      ],
    });
    expect((await h.post('/api/v1/aux/services/', {}, token('family'))).body).toEqual({ servers: [] });
  });
});

describe('access rules are enforced by the server', () => {
  test('a role the rule excludes is 403', async () => {
    expect((await h.post('/test/probe/billing/', {}, token('superAdmin'))).status).toBe(200);
    expect((await h.post('/test/probe/billing/', {}, token('family'))).status).toBe(200);
    for (const who of ['admin', 'integrator', 'recoveryAgent', 'twoTeams']) {
      const res = await h.post('/test/probe/billing/', {}, token(who));
      expect(res.status, who).toBe(403);
      expect(res.body).toEqual({ code: 'forbidden', description: 'Not allowed (role).', message_key: 'errors.forbidden' });
    }
  });

  test('a team type the rule excludes is 403', async () => {
    expect((await h.post('/test/probe/people/', {}, token('admin'))).status).toBe(200);
    const res = await h.post('/test/probe/people/', {}, token('family'));
    expect(res.status).toBe(403);
    expect(res.body.description).toBe('Not allowed (team_type).');
  });

  test('the live service status decides, not the one at sign-in', async () => {
    expect((await h.post('/test/probe/recovery-admins/', {}, token('superAdmin'))).status).toBe(200);
    await h.db.query(`update hubs set services = jsonb_set(services, '{recovery,status}', '3')`);
    try {
      const res = await h.post('/test/probe/recovery-admins/', {}, token('superAdmin'));
      expect(res.status).toBe(403);
      expect(res.body.description).toBe('Not allowed (service_status).');
    } finally {
      await h.db.query(`update hubs set services = jsonb_set(services, '{recovery,status}', '2')`);
    }
  });

  test('an admin whose scopes are removed is refused at once', async () => {
    const { token: own } = await h.signIn(DEMO_ADMINS.admin);
    expect((await h.post('/api/v1/team/info/', {}, own.access)).status).toBe(200);
    await h.db.query(`update team_admins set scopes = '{}' where user_id = (select id from users where email = $1)`, [
      DEMO_ADMINS.admin,
    ]);
    try {
      const res = await h.post('/api/v1/team/info/', {}, own.access);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    } finally {
      await h.db.query(`update team_admins set scopes = '{admin}' where user_id = (select id from users where email = $1)`, [
        DEMO_ADMINS.admin,
      ]);
    }
  });
});

describe('rename', () => {
  test('rename family: name required (family name compulsory), super admin only', async () => {
    const empty = await h.post('/api/v1/team/name/edit/', { team_name: '   ' }, token('family'));
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'invalid_input', description: 'family name compulsory' });
    const denied = await h.post('/api/v1/team/name/edit/', { team_name: 'Nope' }, token('admin'));
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'forbidden' });
    const ok = await h.post('/api/v1/team/name/edit/', { team_name: ' The Okafors ' }, token('family'));
    expect(ok.body).toEqual({ team_name: 'The Okafors' });
    const info = await h.post('/api/v1/team/info/', {}, token('family'));
    expect(info.body).toMatchObject({ team_name: 'The Okafors' });
    await h.post('/api/v1/team/name/edit/', { team_name: 'The Okafor Family' }, token('family'));
  });
});
