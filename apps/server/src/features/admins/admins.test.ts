import { roundUpToTen } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { assertKeepsSuperAdmin } from './admins.service.ts';

let h: Harness;
const tokens = new Map<string, string>();
beforeAll(async () => {
  h = await startHarness();
  for (const who of ['superAdmin', 'admin', 'recoveryAgent'] as const)
    tokens.set(who, (await h.signIn(DEMO_ADMINS[who])).token.access);
  tokens.set('family', (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
});
afterAll(() => h?.close());
const token = (who: string) => tokens.get(who) as string;
const events = (kind: string) =>
  h.db.query<{ email: string }>('select email from security_events where kind = $1 order by id', [kind]);

describe('rules (unit)', () => {
  test('admin count rounds up to a multiple of 10', () => {
    expect([0, 1, 9, 10, 11, 20].map(roundUpToTen)).toEqual([0, 10, 10, 10, 20, 20]);
  });
  test('the last super admin stays', () => {
    const admins = [
      { email: 'a@x', scopes: ['super_admin' as const] },
      { email: 'b@x', scopes: ['admin' as const] },
    ];
    expect(() => assertKeepsSuperAdmin(admins, 'a@x')).toThrow(/at least one super admin/);
    expect(() => assertKeepsSuperAdmin(admins, 'b@x')).not.toThrow();
  });
});

describe('administrators', () => {
  test('list with scopes, search, and the count rounded up to a multiple of 10', async () => {
    const res = await h.post('/api/v1/team/admin/members/', {}, token('superAdmin'));
    expect(res.status, res.text).toBe(200);
    const body = res.body as { admins: { email: string; scopes: string[] }[]; total: number; total_rounded: number };
    expect(body.admins.find((a) => a.email === DEMO_ADMINS.superAdmin)?.scopes).toEqual(['super_admin']);
    // Every row says whether the admin is active or only invited.
    expect(body.admins.every((a) => (a as { status?: string }).status === 'active')).toBe(true);
    expect(body.total).toBe(body.admins.length);
    expect(body.total_rounded).toBe(Math.ceil(body.total / 10) * 10);
    const search = await h.post('/api/v1/team/admin/members/', { search_value: 'ivy' }, token('superAdmin'));
    expect((search.body as { admins: { email: string }[] }).admins.map((a) => a.email)).toEqual([DEMO_ADMINS.integrator]);
  });

  test('an admin scope gets 403 on every super-admin-only call', async () => {
    for (const [path, body] of [
      ['/api/v1/team/admin/members/', {}],
      ['/organization/admin/user/add/', { email: 'x@northwind.example', scopes: ['admin'] }],
      ['/organization/admin/user/remove/', { action: 'remove_admin', email: DEMO_ADMINS.superAdmin }],
      ['/organization/admin/auth/reset/', { email: DEMO_ADMINS.superAdmin, reset_auth: true }],
    ] as const) {
      for (const who of ['admin', 'recoveryAgent']) {
        const res = await h.post(path, body, token(who));
        expect(res.status, `${who} ${path}`).toBe(403);
        expect(res.body).toMatchObject({ code: 'forbidden' });
      }
    }
  });

  test('add with scopes (a new person or an existing one), refuse duplicates, remove with remove_admin', async () => {
    const add = await h.post(
      '/organization/admin/user/add/',
      { email: ' Newadmin@Northwind.example ', scopes: ['admin', 'integrator'] },
      token('superAdmin'),
    );
    expect(add.status, add.text).toBe(200);
    const again = await h.post(
      '/organization/admin/user/add/',
      { email: 'newadmin@northwind.example', scopes: ['admin'] },
      token('superAdmin'),
    );
    expect(again.status).toBe(409);
    // Spec §8: the console shows admin_already_registered for this code.
    expect(again.body).toMatchObject({ code: 'admin_already_exists', message_key: 'admin_already_registered' });
    const noScope = await h.post(
      '/organization/admin/user/add/',
      { email: 'other@northwind.example', scopes: [] },
      token('superAdmin'),
    );
    expect(noScope.status).toBe(400);
    const list = await h.post('/api/v1/team/admin/members/', { search_value: 'newadmin' }, token('superAdmin'));
    expect(list.body).toMatchObject({ admins: [{ email: 'newadmin@northwind.example', scopes: ['admin', 'integrator'] }] });

    const wrongAction = await h.post(
      '/organization/admin/user/remove/',
      { action: 'delete', email: 'newadmin@northwind.example' },
      token('superAdmin'),
    );
    expect(wrongAction.status).toBe(400);
    const remove = await h.post(
      '/organization/admin/user/remove/',
      { action: 'remove_admin', email: 'newadmin@northwind.example', scopes: ['admin', 'integrator'] },
      token('superAdmin'),
    );
    expect(remove.status, remove.text).toBe(200);
    const gone = await h.post('/api/v1/team/admin/members/', { search_value: 'newadmin' }, token('superAdmin'));
    expect(gone.body).toMatchObject({ admins: [] });
    const missing = await h.post(
      '/organization/admin/user/remove/',
      { action: 'remove_admin', email: 'newadmin@northwind.example' },
      token('superAdmin'),
    );
    expect(missing.status).toBe(404);
    expect((await events('admin_added')).map((e) => e.email)).toEqual(['newadmin@northwind.example']);
    expect((await events('admin_removed')).map((e) => e.email)).toEqual(['newadmin@northwind.example']);
  });

  test('the server refuses removing the last super admin', async () => {
    const self = await h.post(
      '/organization/admin/user/remove/',
      { action: 'remove_admin', email: DEMO_ADMINS.superAdmin },
      token('superAdmin'),
    );
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ code: 'last_super_admin' });
    // Administrators are managed in organisation settings; a family team has none to manage (403).
    const family = await h.post(
      '/organization/admin/user/remove/',
      { action: 'remove_admin', email: DEMO_ADMINS.twoTeams },
      token('family'),
    );
    expect(family.status).toBe(403);
  });

  test('a second super admin can be removed, and two concurrent removals cannot empty the team', async () => {
    await h.post(
      '/organization/admin/user/add/',
      { email: 'second@northwind.example', scopes: ['super_admin'] },
      token('superAdmin'),
    );
    const [a, b] = await Promise.all([
      h.post(
        '/organization/admin/user/remove/',
        { action: 'remove_admin', email: 'second@northwind.example' },
        token('superAdmin'),
      ),
      h.post('/organization/admin/user/remove/', { action: 'remove_admin', email: DEMO_ADMINS.superAdmin }, token('superAdmin')),
    ]);
    expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
    const [row] = await h.db.query<{ n: number }>(
      `select count(*)::int as n from team_admins ta join teams t on t.id = ta.team_id
       where t.slug = 'northwind' and 'super_admin' = any(ta.scopes)`,
    );
    expect(row?.n).toBe(1);
    // Either removal may win the race; put Alex back as the only super admin for the tests after this one.
    await h.db.exec(
      `delete from team_admins where user_id = (select id from users where email = 'second@northwind.example');
       insert into team_admins (team_id, user_id, scopes)
       select t.id, u.id, array['super_admin'] from teams t, users u
       where t.slug = 'northwind' and u.email = '${DEMO_ADMINS.superAdmin}'
       on conflict (team_id, user_id) do update set scopes = excluded.scopes`,
    );
  });

  test('reset auth clears the sign-in factors (security keys included) and ends the sessions of that admin only', async () => {
    const victim = (await h.signIn(DEMO_ADMINS.recoveryAgent)).token.access;
    const actor = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
    const keyCount = (email: string) =>
      h.db.query<{ n: number }>(
        'select count(*)::int as n from security_keys k join users u on u.id = k.user_id where u.email = $1',
        [email],
      );
    for (const [email, id] of [
      [DEMO_ADMINS.recoveryAgent, 'reset-key-1'],
      [DEMO_ADMINS.recoveryAgent, 'reset-key-2'],
      [DEMO_ADMINS.superAdmin, 'reset-key-kept'],
    ] as const) {
      await h.db.query(
        "insert into security_keys (user_id, credential_id, public_key) select id, $2, 'AAAA' from users where email = $1",
        [email, id],
      );
    }
    const self = await h.post('/organization/admin/auth/reset/', { email: DEMO_ADMINS.superAdmin, reset_auth: true }, actor);
    expect(self.status).toBe(400);
    const res = await h.post('/organization/admin/auth/reset/', { email: DEMO_ADMINS.recoveryAgent, reset_auth: true }, actor);
    expect(res.status, res.text).toBe(200);
    const [user] = await h.db.query<{ password_hash: string | null }>('select password_hash from users where email = $1', [
      DEMO_ADMINS.recoveryAgent,
    ]);
    expect(user?.password_hash).toBeNull();
    expect((await keyCount(DEMO_ADMINS.recoveryAgent))[0]?.n).toBe(0);
    expect((await keyCount(DEMO_ADMINS.superAdmin))[0]?.n).toBe(1);
    expect((await h.post('/api/v1/team/admin/scope/', {}, victim)).status).toBe(401);
    expect((await h.post('/api/v1/team/admin/scope/', {}, actor)).status).toBe(200);
    expect((await events('admin_auth_reset')).map((e) => e.email)).toEqual([DEMO_ADMINS.recoveryAgent]);
  });
});

/** Security finding 3: the super admin of one team attacks an admin of another. */
describe('admins of one team cannot touch another team’s admin', () => {
  const MALLORY = 'mallory@contoso.example';
  let mallory = '';
  const invitationToken = (email: string) => h.invitationToken(email);
  const northwindSession = async () => (await h.signIn(DEMO_ADMINS.recoveryAgent)).token.access;

  beforeAll(async () => {
    // Contoso, a second organisation, whose super admin is the attacker.
    await h.db.exec(
      `insert into teams (slug, name, team_type, organization_type, valid_till)
         values ('contoso', 'Contoso', 'organization', 'enterprise', current_date + 365);
       insert into users (email, name, password_hash)
         select '${MALLORY}', 'Mallory', password_hash from users where email = '${DEMO_ADMINS.superAdmin}';
       insert into team_admins (team_id, user_id, scopes)
         select t.id, u.id, array['super_admin'] from teams t, users u where t.slug = 'contoso' and u.email = '${MALLORY}';`,
    );
    await h.db.query('update users set password_hash = (select password_hash from users where email = $1) where email = $2', [
      DEMO_ADMINS.superAdmin,
      DEMO_ADMINS.recoveryAgent,
    ]);
    mallory = (await h.signIn(MALLORY, 'contoso')).token.access;
  });

  test('adding an existing account only invites it: no scopes, no reset, the person’s sessions untouched', async () => {
    const victim = await northwindSession();
    const add = await h.post(
      '/organization/admin/user/add/',
      { email: DEMO_ADMINS.recoveryAgent, scopes: ['super_admin'] },
      mallory,
    );
    expect(add.status, add.text).toBe(200);
    expect(add.body).toEqual({ code: 'invited' });
    const member = await h.db.query(
      `select 1 from team_admins ta join teams t on t.id = ta.team_id join users u on u.id = ta.user_id
       where t.slug = 'contoso' and u.email = $1`,
      [DEMO_ADMINS.recoveryAgent],
    );
    expect(member).toEqual([]);
    const list = await h.post<{ admins: { email: string; status: string; scopes: string[] }[] }>(
      '/api/v1/team/admin/members/',
      {},
      mallory,
    );
    expect(list.body.admins).toContainEqual({
      email: DEMO_ADMINS.recoveryAgent,
      name: 'Rory Walsh',
      scopes: ['super_admin'],
      status: 'pending',
    });
    // The attack: reset the victim's sign-in from Contoso.
    const reset = await h.post(
      '/organization/admin/auth/reset/',
      { email: DEMO_ADMINS.recoveryAgent, reset_auth: true },
      mallory,
    );
    expect(reset.status).toBe(404);
    const [user] = await h.db.query<{ password_hash: string | null }>('select password_hash from users where email = $1', [
      DEMO_ADMINS.recoveryAgent,
    ]);
    expect(user?.password_hash).not.toBeNull();
    expect((await h.post('/api/v1/team/admin/scope/', {}, victim)).status).toBe(200);
    await invitationToken(DEMO_ADMINS.recoveryAgent);
  });

  test('the person accepts by the mailed single-use link; then a reset from the other team is still refused', async () => {
    await h.post('/organization/admin/user/add/', { email: DEMO_ADMINS.recoveryAgent, scopes: ['admin'] }, mallory);
    const invitation = await invitationToken(DEMO_ADMINS.recoveryAgent);
    // The newest invitation replaced the earlier one.
    const described = await h.post('/api/v1/console/auth/admin/invitation/', { token: invitation });
    expect(described.body).toEqual({
      email: DEMO_ADMINS.recoveryAgent,
      team_slug: 'contoso',
      team_name: 'Contoso',
      scopes: ['admin'],
    });
    const accepted = await h.post('/api/v1/console/auth/admin/invitation/accept/', { token: invitation });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ code: 'accepted', team_slug: 'contoso' });
    const again = await h.post('/api/v1/console/auth/admin/invitation/accept/', { token: invitation });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'invalid_link' });
    const list = await h.post<{ admins: { email: string; status: string }[] }>('/api/v1/team/admin/members/', {}, mallory);
    expect(list.body.admins.filter((a) => a.email === DEMO_ADMINS.recoveryAgent)).toEqual([
      expect.objectContaining({ email: DEMO_ADMINS.recoveryAgent, scopes: ['admin'], status: 'active' }),
    ]);

    const victim = await northwindSession();
    const reset = await h.post(
      '/organization/admin/auth/reset/',
      { email: DEMO_ADMINS.recoveryAgent, reset_auth: true },
      mallory,
    );
    expect(reset.status).toBe(409);
    expect(reset.body).toMatchObject({ code: 'admin_in_other_team', message_key: 'errors.admin_in_other_team' });
    expect((await h.post('/api/v1/team/admin/scope/', {}, victim)).status).toBe(200);
    // Removing them from Contoso ends their Contoso sessions only.
    const inContoso = (await h.signIn(DEMO_ADMINS.recoveryAgent, 'contoso')).token.access;
    const removed = await h.post(
      '/organization/admin/user/remove/',
      { action: 'remove_admin', email: DEMO_ADMINS.recoveryAgent },
      mallory,
    );
    expect(removed.status).toBe(200);
    expect((await h.post('/api/v1/team/admin/scope/', {}, inContoso)).status).toBe(401);
    expect((await h.post('/api/v1/team/admin/scope/', {}, victim)).status).toBe(200);
  });

  test('an expired invitation cannot be accepted', async () => {
    await h.post('/organization/admin/user/add/', { email: DEMO_ADMINS.admin, scopes: ['admin'] }, mallory);
    const invitation = await invitationToken(DEMO_ADMINS.admin);
    await h.db.query("update admin_invitations set expires_at = now() - interval '1 second' where accepted_at is null");
    const late = await h.post('/api/v1/console/auth/admin/invitation/accept/', { token: invitation });
    expect(late.body).toMatchObject({ code: 'invalid_link' });
    const list = await h.post<{ admins: { email: string }[] }>('/api/v1/team/admin/members/', {}, mallory);
    expect(list.body.admins.map((a) => a.email)).not.toContain(DEMO_ADMINS.admin);
  });

  test('removing a pending invitation cancels it: its link no longer works', async () => {
    await h.post('/organization/admin/user/add/', { email: DEMO_ADMINS.integrator, scopes: ['admin'] }, mallory);
    const invitation = await invitationToken(DEMO_ADMINS.integrator);
    const cancel = await h.post(
      '/organization/admin/user/remove/',
      { action: 'remove_admin', email: DEMO_ADMINS.integrator },
      mallory,
    );
    expect(cancel.status, cancel.text).toBe(200);
    expect((await h.post('/api/v1/console/auth/admin/invitation/accept/', { token: invitation })).body).toMatchObject({
      code: 'invalid_link',
    });
    const list = await h.post<{ admins: { email: string }[] }>('/api/v1/team/admin/members/', {}, mallory);
    expect(list.body.admins.map((a) => a.email)).not.toContain(DEMO_ADMINS.integrator);
  });
});
