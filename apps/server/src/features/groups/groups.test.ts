import { Group, GroupMember, Member, MemberDevice, NO_PRIORITY } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { devicesRepository } from '../devices/index.ts';

let h: Harness;
const tokens = new Map<string, string>();
beforeAll(async () => {
  h = await startHarness();
  for (const [role, email] of Object.entries(DEMO_ADMINS)) tokens.set(role, (await h.signIn(email)).token.access);
  tokens.set('family', (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
});
afterAll(() => h?.close());

const token = (who: string) => tokens.get(who) as string;
const List = z.object({ results: z.array(Group.strict()), pages: z.number(), count: z.number() }).strict();
const Detail = Group.extend({ members: z.array(GroupMember.strict()) }).strict();

const list = async (query = '', body: Record<string, unknown> = {}, who = 'admin') => {
  const res = await h.post(`/api/v1/team/groups/${query}`, body, token(who));
  expect(res.status, res.text).toBe(200);
  return List.parse(res.body);
};
const detail = async (id: string) => {
  const res = await h.post('/api/v1/team/group/', { id }, token('admin'));
  expect(res.status, res.text).toBe(200);
  return Detail.parse(res.body);
};
const currentEmails = async (n: number, offset = 0) =>
  (
    await h.db.query<{ email: string }>(
      `select m.email from members m join teams t on t.id = m.team_id
       where t.slug = 'northwind' and m.deboarded_at is null order by m.email limit $1 offset $2`,
      [n, offset],
    )
  ).map((r) => r.email);
const create = async (group: string, emails: string[] = [], who = 'admin') => {
  const res = await h.post('/api/v1/team/group/create/', { group, emails }, token(who));
  expect(res.status, res.text).toBe(200);
  return Group.strict().parse(res.body);
};

describe('groups list', () => {
  test('the demo groups by name, with the first five member emails and the count', async () => {
    const { results, pages, count } = await list();
    expect(results.map((g) => g.name)).toEqual(['Customer Support', 'Design', 'Engineering', 'Finance', 'Leadership', 'Sales']);
    expect({ pages, count }).toEqual({ pages: 1, count: 6 });
    const engineering = results.find((g) => g.name === 'Engineering');
    expect(engineering?.emails).toHaveLength(5);
    expect(engineering?.emails).toEqual([...(engineering?.emails ?? [])].sort());
    expect(engineering?.member_count).toBeGreaterThan(20);
    // The demo's group policies (policies.demo.ts) rank Engineering first, Leadership second.
    expect(engineering?.priority_level).toBe(1);
    expect(results.find((g) => g.name === 'Sales')?.priority_level).toBe(NO_PRIORITY);
  });

  test('page and page_size come from the query string; search filters by name', async () => {
    const first = await list('?page=1&page_size=4');
    expect(first.results).toHaveLength(4);
    expect(first.pages).toBe(2);
    const second = await list('?page=2&page_size=4');
    expect(second.results.map((g) => g.name)).toEqual(['Leadership', 'Sales']);
    const found = await list('', { filters: { search_value: 'ENG' } });
    expect(found.results.map((g) => g.name)).toEqual(['Engineering']);
    expect((await list('', { filters: { search_value: '%' } })).results).toEqual([]);
  });

  test('a page size above the limit is refused', async () => {
    const res = await h.post('/api/v1/team/groups/?page_size=100001', {}, token('admin'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_input' });
  });
});

describe('group create, edit, members, priority, remove', () => {
  test('create with members, then read it with every member', async () => {
    const emails = await currentEmails(3);
    const group = await create('  Night Shift  ', emails);
    expect(group).toMatchObject({ name: 'Night Shift', member_count: 3, priority_level: NO_PRIORITY, policy_override: false });
    const read = await detail(group.id);
    expect(read.members.map((m) => m.email)).toEqual(emails);
    const [event] = await h.db.query<{ action: string; detail: { group: string } }>(
      `select action, detail from member_events where action = 'group_created' order by id desc limit 1`,
    );
    expect(event?.detail.group).toBe('Night Shift');
  });

  test('create: name required, unique in the team (any case), members must be current members', async () => {
    const empty = await h.post('/api/v1/team/group/create/', { group: '  ', emails: [] }, token('admin'));
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'invalid_input', description: 'this field is required' });
    const badEmail = await h.post('/api/v1/team/group/create/', { group: 'X', emails: ['not-an-email'] }, token('admin'));
    expect(badEmail.body).toMatchObject({ code: 'invalid_input', description: 'loginpage.enter_valid_email' });
    const taken = await h.post('/api/v1/team/group/create/', { group: 'sales', emails: [] }, token('admin'));
    expect(taken.status).toBe(409);
    // The console shows the key, in the admin's language, naming the group as it was typed.
    expect(taken.body).toMatchObject({
      code: 'group_already_exists',
      message_key: 'errors.group_already_exists',
      message_values: { name: 'sales' },
    });
    const stranger = await h.post(
      '/api/v1/team/group/create/',
      { group: 'Strangers', emails: ['nobody@elsewhere.example'] },
      token('admin'),
    );
    expect(stranger.status).toBe(404);
    expect(stranger.body).toMatchObject({ code: 'member_not_found' });
    // Nothing half-made: the refused group does not exist.
    expect((await list('', { filters: { search_value: 'Strangers' } })).results).toEqual([]);
  });

  test('two admins creating the same name at once: one group, the other refused', async () => {
    const replies = await Promise.all(
      ['admin', 'superAdmin'].map((who) => h.post('/api/v1/team/group/create/', { group: 'Race', emails: [] }, token(who))),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(replies.find((r) => r.status === 409)?.body).toMatchObject({ code: 'group_already_exists' });
    expect((await list('', { filters: { search_value: 'Race' } })).count).toBe(1);
  });

  test('edit renames; a taken name or unknown id is refused', async () => {
    const group = await create('Temp Crew');
    const res = await h.post('/api/v1/team/group/edit/', { id: group.id, name: 'Weekend Crew' }, token('superAdmin'));
    expect(res.status, res.text).toBe(200);
    expect(Group.parse(res.body).name).toBe('Weekend Crew');
    const taken = await h.post('/api/v1/team/group/edit/', { id: group.id, name: 'Design' }, token('admin'));
    expect(taken.body).toMatchObject({ code: 'group_already_exists' });
    const unknown = await h.post(
      '/api/v1/team/group/edit/',
      { id: '00000000-0000-4000-8000-000000000000', name: 'Nope' },
      token('admin'),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'group_not_found' });
    const badId = await h.post('/api/v1/team/group/edit/', { id: 'abc', name: 'Nope' }, token('admin'));
    expect(badId.status).toBe(400);
  });

  test('add and remove members; adding twice is harmless; strangers refused', async () => {
    const group = await create('Auditors');
    const emails = await currentEmails(4, 10);
    const add = await h.post('/api/v1/team/group/members/add/', { id: group.id, emails }, token('admin'));
    expect(add.body).toEqual({ code: 'updated', added: 4 });
    const again = await h.post('/api/v1/team/group/members/add/', { id: group.id, emails: emails.slice(0, 2) }, token('admin'));
    expect(again.body).toEqual({ code: 'updated', added: 0 });
    const out = await h.post('/api/v1/team/group/members/remove/', { id: group.id, emails: [emails[0]] }, token('admin'));
    expect(out.body).toEqual({ code: 'updated', removed: 1 });
    expect((await detail(group.id)).members.map((m) => m.email)).toEqual(emails.slice(1));
    const stranger = await h.post(
      '/api/v1/team/group/members/add/',
      { id: group.id, emails: ['nobody@elsewhere.example'] },
      token('admin'),
    );
    expect(stranger.body).toMatchObject({ code: 'member_not_found' });
    const none = await h.post('/api/v1/team/group/members/add/', { id: group.id, emails: [] }, token('admin'));
    expect(none.body).toMatchObject({ code: 'invalid_input', description: 'this field is required' });
  });

  test('priority: set, a taken level moves the others down, reset means 999999', async () => {
    const a = await create('Prio A');
    const b = await create('Prio B');
    const set = async (body: Record<string, unknown>) => {
      const res = await h.post('/api/v1/team/group/update/priority/', body, token('admin'));
      expect(res.status, res.text).toBe(200);
      return Group.parse(res.body);
    };
    expect((await set({ id: a.id, priority_level: 3 })).priority_level).toBe(3);
    expect((await set({ id: b.id, priority_level: 3 })).priority_level).toBe(3);
    const levels = Object.fromEntries((await list()).results.map((g) => [g.name, g.priority_level]));
    expect(levels['Prio A']).toBe(4);
    expect(levels.Engineering).toBe(1);
    expect(levels.Leadership).toBe(2);
    expect((await set({ id: a.id, reset_priority_level: true })).priority_level).toBe(NO_PRIORITY);
    expect((await set({ id: b.id, priority_level: NO_PRIORITY })).priority_level).toBe(NO_PRIORITY);
    const missing = await h.post('/api/v1/team/group/update/priority/', { id: a.id }, token('admin'));
    expect(missing.body).toMatchObject({ code: 'invalid_input', description: 'this field is required' });
    const tooBig = await h.post('/api/v1/team/group/update/priority/', { id: a.id, priority_level: 50000 }, token('admin'));
    expect(tooBig.status).toBe(400);
    const zero = await h.post('/api/v1/team/group/update/priority/', { id: a.id, priority_level: 0 }, token('admin'));
    expect(zero.status).toBe(400);
  });

  test('remove takes an id list, all or nothing', async () => {
    const a = await create('Gone A');
    const b = await create('Gone B');
    const partial = await h.post(
      '/api/v1/team/group/remove/',
      { id: [a.id, '00000000-0000-4000-8000-000000000000'] },
      token('admin'),
    );
    expect(partial.status).toBe(404);
    expect((await list('', { filters: { search_value: 'Gone' } })).count).toBe(2);
    const res = await h.post('/api/v1/team/group/remove/', { id: [a.id, b.id] }, token('admin'));
    expect(res.body).toEqual({ code: 'updated', removed: 2 });
    expect((await list('', { filters: { search_value: 'Gone' } })).count).toBe(0);
    const empty = await h.post('/api/v1/team/group/remove/', { id: [] }, token('admin'));
    expect(empty.status).toBe(400);
  });
});

describe('group access', () => {
  const calls: [string, Record<string, unknown>][] = [
    ['/api/v1/team/groups/', {}],
    ['/api/v1/team/group/', { id: '00000000-0000-4000-8000-000000000000' }],
    ['/api/v1/team/group/create/', { group: 'Refused', emails: [] }],
    ['/api/v1/team/group/edit/', { id: '00000000-0000-4000-8000-000000000000', name: 'x' }],
    ['/api/v1/team/group/remove/', { id: ['00000000-0000-4000-8000-000000000000'] }],
    ['/api/v1/team/group/update/priority/', { id: '00000000-0000-4000-8000-000000000000', priority_level: 1 }],
    ['/api/v1/team/group/members/add/', { id: '00000000-0000-4000-8000-000000000000', emails: ['a@b.example'] }],
    ['/api/v1/team/group/members/remove/', { id: '00000000-0000-4000-8000-000000000000', emails: ['a@b.example'] }],
    ['/api/v1/team/member/devices/', { email: 'a@b.example' }],
  ];
  test('integrators, recovery agents and family teams are refused; no token is 401', async () => {
    for (const who of ['integrator', 'recoveryAgent', 'family']) {
      for (const [path, body] of calls) {
        const res = await h.post(path, body, token(who));
        expect(res.status, `${who} ${path}`).toBe(403);
        expect(res.body).toMatchObject({ code: 'forbidden' });
      }
    }
    for (const [path, body] of calls) expect((await h.post(path, body)).status, path).toBe(401);
    expect((await list('', { filters: { search_value: 'Refused' } })).count).toBe(0);
  });

  test("another team's group is not found", async () => {
    const [other] = await h.db.query<{ id: string }>(
      `insert into groups (team_id, name) select id, 'Family Group' from teams where slug = 'sam-family' returning id`,
    );
    for (const [path, body] of [
      ['/api/v1/team/group/', { id: other?.id }],
      ['/api/v1/team/group/edit/', { id: other?.id, name: 'Mine now' }],
      ['/api/v1/team/group/remove/', { id: [other?.id] }],
    ] as const) {
      const res = await h.post(path, body, token('superAdmin'));
      expect(res.status, path).toBe(404);
    }
    const [still] = await h.db.query<{ name: string }>('select name from groups where id = $1', [other?.id]);
    expect(still?.name).toBe('Family Group');
  });
});

describe('member devices', () => {
  const Devices = z
    .object({
      member: z
        .object({ email: z.string(), name: z.string(), status: z.string(), source: z.enum(['console', 'scim', 'directory']) })
        .strict(),
      group: z.object({ id: z.string(), name: z.string() }).strict().nullable(),
      devices: z.array(MemberDevice.strict()),
    })
    .strict();
  const memberWithDevices = async () => {
    const [row] = await h.db.query<{ email: string; n: number }>(
      `select m.email, count(*)::int as n from member_devices d join members m on m.id = d.member_id
       group by m.email having count(*) >= 2 order by m.email limit 1`,
    );
    return row as { email: string; n: number };
  };

  test("a member's devices, most recently seen first", async () => {
    const { email, n } = await memberWithDevices();
    const res = await h.post('/api/v1/team/member/devices/', { email }, token('admin'));
    expect(res.status, res.text).toBe(200);
    const body = Devices.parse(res.body);
    expect(body.member.email).toBe(email);
    expect(body.group).toBeNull();
    expect(body.devices).toHaveLength(n);
    const seen = body.devices.map((d) => d.last_seen_at);
    expect(seen).toEqual([...seen].sort().reverse());
  });

  test('a device report (what the Hub ingestion will send) adds a device, then updates it in place', async () => {
    const [member] = await h.db.query<{ id: string; team_id: string; email: string }>(
      `select m.id, m.team_id, m.email from members m left join member_devices d on d.member_id = m.id
       where m.deboarded_at is null and d.id is null and m.team_id = (select id from teams where slug = 'northwind')
       order by m.email limit 1`,
    );
    if (!member) throw new Error('the demo has members without devices');
    const seen = new Date('2026-01-02T03:04:05Z');
    const report = {
      device_id: 'dev-1',
      name: 'Work laptop',
      type: 'desktop',
      os: 'Linux',
      app_version: '8.4.0',
      seen_at: seen,
    } as const;
    await devicesRepository.upsert(h.db, member.team_id, member.id, report);
    await devicesRepository.upsert(h.db, member.team_id, member.id, {
      ...report,
      app_version: '8.5.0',
      seen_at: new Date('2026-01-01T00:00:00Z'),
      hub_authenticated_at: seen,
    });
    const res = await h.post('/api/v1/team/member/devices/', { email: member.email }, token('admin'));
    const { devices } = Devices.parse(res.body);
    expect(devices).toHaveLength(1);
    // A late, older report never moves "last seen" back.
    expect(devices[0]).toMatchObject({
      name: 'Work laptop',
      type: 'desktop',
      os: 'Linux',
      app_version: '8.5.0',
      last_seen_at: seen.toISOString(),
      hub_authenticated_at: seen.toISOString(),
    });
  });

  test('through a group: only a member of that group', async () => {
    const emails = await currentEmails(1, 30);
    const group = await create('Device Check', emails);
    const inGroup = await h.post('/api/v1/team/member/devices/', { email: emails[0], group_id: group.id }, token('admin'));
    expect(Devices.parse(inGroup.body).group).toEqual({ id: group.id, name: 'Device Check' });
    const other = (await currentEmails(1, 31))[0];
    const notIn = await h.post('/api/v1/team/member/devices/', { email: other, group_id: group.id }, token('admin'));
    expect(notIn.status).toBe(404);
    expect(notIn.body).toMatchObject({ code: 'member_not_found' });
    const stranger = await h.post('/api/v1/team/member/devices/', { email: 'nobody@elsewhere.example' }, token('admin'));
    expect(stranger.body).toMatchObject({ code: 'member_not_found' });
  });
});

describe('members filter: hub authentication', () => {
  const page = async (filters: Record<string, unknown>) => {
    const res = await h.post('/api/v1/team/members/', { ...filters, page_size: 100 }, token('admin'));
    expect(res.status, res.text).toBe(200);
    return z.object({ results: z.array(Member), next_cursor: z.string().nullable() }).parse(res.body).results;
  };
  const count = async (filters: Record<string, unknown>) =>
    ((await h.post('/api/v1/team/members/count/', filters, token('admin'))).body as { total: number }).total;

  test('authenticated and not authenticated split the members', async () => {
    const all = await count({});
    const yes = await count({ hub_authentication: 'authenticated' });
    const no = await count({ hub_authentication: 'not_authenticated' });
    expect(yes).toBeGreaterThan(0);
    expect(no).toBeGreaterThan(0);
    expect(yes + no).toBe(all);
    // A member this test adds with two Hub-authenticated devices counts once among the authenticated;
    // one with a device that never authenticated counts among the others.
    const stamp = Date.now().toString(36);
    for (const [who, devices] of [
      ['hub', [true, true]],
      ['nohub', [false]],
    ] as const) {
      const [member] = await h.db.query<{ id: string; team_id: string }>(
        `insert into members (team_id, email, usage) values ((select id from teams where slug = 'northwind'), $1, 'active')
         returning id, team_id`,
        [`${who}.${stamp}@northwind.example`],
      );
      for (const [i, authenticated] of devices.entries()) {
        await h.db.query(
          `insert into member_devices (team_id, member_id, device_id, name, type, os, app_version, hub_authenticated_at)
           values ($1, $2, $3, 'Laptop', 'desktop', 'macOS', '1.0', case when $4 then now() end)`,
          [member?.team_id, member?.id, `d${i}`, authenticated],
        );
      }
    }
    try {
      expect(await count({ hub_authentication: 'authenticated' })).toBe(yes + 1);
      expect(await count({ hub_authentication: 'not_authenticated' })).toBe(no + 1);
    } finally {
      await h.db.query('delete from members where email like $1', [`%.${stamp}@northwind.example`]);
    }
    const authenticated = await page({ hub_authentication: 'authenticated', search_value: 'son' });
    expect(authenticated.every((m) => m.email.includes('son') || m.name.toLowerCase().includes('son'))).toBe(true);
    expect(authenticated.every((m) => m.usage === 'active')).toBe(true);
  });

  test('refused without a connected Hub (the capability check)', async () => {
    await h.db.query(`update hubs set services = jsonb_set(services, '{integration,enabled}', 'false')`);
    try {
      const res = await h.post('/api/v1/team/members/', { hub_authentication: 'authenticated' }, token('admin'));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_input' });
      expect((await h.post('/api/v1/team/members/', {}, token('admin'))).status).toBe(200);
    } finally {
      await h.db.query(`update hubs set services = jsonb_set(services, '{integration,enabled}', 'true')`);
    }
    const bad = await h.post('/api/v1/team/members/', { hub_authentication: 'maybe' }, token('admin'));
    expect(bad.status).toBe(400);
  });
});
