import { NO_PRIORITY, POLICY_CATALOGUE } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

let h: Harness;
const tokens = new Map<string, string>();
const token = (who: string) => tokens.get(who) as string;
const P = '/api/v1/policy/team';

// A small world of its own inside Northwind: two groups and four members.
const M = {
  both: 'pt.both@northwind.example',
  g2: 'pt.g2@northwind.example',
  none: 'pt.none@northwind.example',
  g1: 'pt.g1@northwind.example',
};
const G: Record<'g1' | 'g2', string> = { g1: '', g2: '' };

beforeAll(async () => {
  h = await startHarness();
  for (const who of ['superAdmin', 'admin', 'integrator', 'recoveryAgent'] as const)
    tokens.set(who, (await h.signIn(DEMO_ADMINS[who])).token.access);
  tokens.set('family', (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
  const [team] = await h.db.query<{ id: string }>("select id from teams where slug = 'northwind'");
  const ids: Record<string, string> = {};
  for (const [k, email] of Object.entries(M)) {
    const [row] = await h.db.query<{ id: string }>(
      'insert into members (team_id, email, name) values ($1, $2, $3) returning id',
      [team?.id, email, k],
    );
    ids[k] = row?.id as string;
  }
  for (const [g, members] of [
    ['g1', [ids.both, ids.g1]],
    ['g2', [ids.both, ids.g2]],
  ] as const) {
    const [row] = await h.db.query<{ id: string }>('insert into groups (team_id, name) values ($1, $2) returning id', [
      team?.id,
      `Policy test ${g}`,
    ]);
    G[g] = row?.id as string;
    for (const m of members) await h.db.query('insert into group_members (group_id, member_id) values ($1, $2)', [row?.id, m]);
  }
});
afterAll(() => h?.close());

const post = (path: string, body: unknown, who = 'superAdmin') => h.post(`${P}${path}`, body, token(who));

/** Removes every removable team key, so each case starts from the catalogue defaults. */
async function resetTeam() {
  const patch: Record<string, unknown> = {};
  for (const d of POLICY_CATALOGUE.filter((p) => !p.readonly))
    patch[d.key] = d.non_removable ? { policy: d.default } : { policy: 'auto' };
  expect((await post('/update/', { policy_json: patch })).status).toBe(200);
}

async function setGroup(
  g: 'g1' | 'g2',
  policy: Record<string, unknown>,
  notEnforced: Record<string, boolean> = {},
  priority?: number,
) {
  const res = await post('/group/update/', {
    group_id: G[g],
    policy_json: policy,
    not_enforced_json: notEnforced,
    priority_level: priority,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { group: { policy_override: boolean; priority_level: number } };
}

interface Item {
  key: string;
  value: unknown;
  source: string;
  group_name: string | null;
  enforced: boolean;
}
async function effective(email: string): Promise<Record<string, Item>> {
  const res = await post('/member/effective/', { email });
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries((res.body as { policies: Item[] }).policies.map((p) => [p.key, p]));
}

interface Case {
  name: string;
  team: Record<string, unknown>;
  g1?: [Record<string, unknown>, Record<string, boolean>?, number?];
  g2?: [Record<string, unknown>, Record<string, boolean>?, number?];
  expect: [email: string, key: string, value: unknown, source: string, group: 'g1' | 'g2' | null, enforced: boolean][];
}

const CASES: Case[] = [
  {
    name: 'team policy only',
    team: { 'tfa.required': { policy: true } },
    expect: [
      [M.none, 'tfa.required', true, 'team', null, true],
      [M.none, 'generator.length', 20, 'default', null, false],
      [M.none, 'vault.encryption', 'aes_256_gcm', 'product', null, true],
    ],
  },
  {
    name: 'a group overrides the team policy for its members only',
    team: { 'mp.min_length': { policy: 12 } },
    g2: [{ 'mp.min_length': 16 }, {}, 2],
    expect: [
      [M.g2, 'mp.min_length', 16, 'group', 'g2', true],
      [M.none, 'mp.min_length', 12, 'team', null, true],
    ],
  },
  {
    name: 'several groups: the lowest priority number wins',
    team: { 'mp.min_length': { policy: 12 } },
    g1: [{ 'mp.min_length': 20 }, {}, 1],
    g2: [{ 'mp.min_length': 16 }, {}, 2],
    expect: [
      [M.both, 'mp.min_length', 20, 'group', 'g1', true],
      [M.g2, 'mp.min_length', 16, 'group', 'g2', true],
    ],
  },
  {
    name: 'priorities swapped: the other group wins',
    team: {},
    g1: [{ 'mp.min_length': 20 }, {}, 3],
    g2: [{ 'mp.min_length': 16 }, {}, 2],
    expect: [[M.both, 'mp.min_length', 16, 'group', 'g2', true]],
  },
  {
    name: 'a key one group leaves unset comes from the next group',
    team: {},
    g1: [{ 'mp.min_length': 20 }, {}, 1],
    g2: [{ 'export.allowed': true }, {}, 2],
    expect: [
      [M.both, 'mp.min_length', 20, 'group', 'g1', true],
      [M.both, 'export.allowed', true, 'group', 'g2', true],
    ],
  },
  {
    name: 'not enforced: the enforced team value wins over a not-enforced group value',
    team: { 'export.allowed': { policy: false } },
    g1: [{ 'export.allowed': true }, { 'export.allowed': true }, 1],
    expect: [[M.g1, 'export.allowed', false, 'team', null, true]],
  },
  {
    name: 'not enforced: with nothing enforced, the group value applies and the member may change it',
    team: {},
    g1: [{ 'export.allowed': true }, { 'export.allowed': true }, 1],
    expect: [[M.g1, 'export.allowed', true, 'group', 'g1', false]],
  },
  {
    name: 'not enforced on the higher-priority group yields to an enforced lower-priority group',
    team: {},
    g1: [{ 'tfa.required': false }, { 'tfa.required': true }, 1],
    g2: [{ 'tfa.required': true }, {}, 2],
    expect: [[M.both, 'tfa.required', true, 'group', 'g2', true]],
  },
  {
    name: 'include limits a team entry to the members named',
    team: { 'autofill.on_page_load': { policy: true, include: [M.both] } },
    expect: [
      [M.both, 'autofill.on_page_load', true, 'team', null, true],
      [M.none, 'autofill.on_page_load', false, 'default', null, false],
    ],
  },
  {
    name: 'exclude spares the members named',
    team: { 'biometrics.allowed': { policy: false, exclude: [M.g2] } },
    expect: [
      [M.g2, 'biometrics.allowed', true, 'default', null, false],
      [M.none, 'biometrics.allowed', false, 'team', null, true],
    ],
  },
  {
    name: 'a group overrides a team entry whatever its scoping',
    team: { 'sharing.scope': { policy: 'none', include: [M.g1] } },
    g1: [{ 'sharing.scope': 'anyone' }, {}, 1],
    expect: [[M.g1, 'sharing.scope', 'anyone', 'group', 'g1', true]],
  },
];

describe('effective policy resolution (table of cases, through HTTP)', () => {
  for (const c of CASES) {
    test(c.name, async () => {
      await resetTeam();
      for (const g of ['g1', 'g2'] as const) {
        const [policy, notEnforced, priority] = c[g] ?? [{}];
        await setGroup(g, policy, notEnforced, priority);
      }
      if (Object.keys(c.team).length) expect((await post('/update/', { policy_json: c.team })).status).toBe(200);
      for (const [email, key, value, source, group, enforced] of c.expect) {
        const item = (await effective(email))[key];
        expect(item, `${email} ${key}`).toMatchObject({
          value,
          source,
          enforced,
          group_name: group ? `Policy test ${group}` : null,
        });
      }
    });
  }

  test("the member's groups are listed with their priority", async () => {
    await setGroup('g1', { 'tfa.required': true }, {}, 1);
    const res = await post('/member/effective/', { email: M.both });
    const groups = (res.body as { groups: { name: string; priority_level: number }[] }).groups;
    expect(groups.map((g) => g.name).sort()).toEqual(['Policy test g1', 'Policy test g2']);
    expect((await post('/member/effective/', { email: 'nobody@northwind.example' })).body).toMatchObject({
      code: 'member_not_found',
    });
  });
});

describe('team policy', () => {
  test("save, read back, 'auto' removes the key, and the team says a policy is present", async () => {
    await resetTeam();
    const saved = await post('/update/', {
      policy_json: { 'tfa.required': { policy: true }, 'autolock.minutes': { policy: 5 } },
    });
    expect(saved.status, saved.text).toBe(200);
    const read = await post('/', {});
    expect((read.body as { policy_json: Record<string, unknown> }).policy_json).toMatchObject({
      'tfa.required': { policy: true },
      'autolock.minutes': { policy: 5 },
    });
    expect((await h.post('/api/v1/team/info/', {}, token('admin'))).body).toMatchObject({ is_team_policy_present: true });
    await post('/update/', { policy_json: { 'tfa.required': { policy: 'auto' } } });
    expect((await post('/', {})).body).not.toHaveProperty(['policy_json', 'tfa.required']);
  });

  test('mp.min_length 1001 is refused with the key as the issue path; 1000 is accepted', async () => {
    const refused = await post('/update/', { policy_json: { 'mp.min_length': { policy: 1001 } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'invalid_input', issues: [{ path: 'policy_json.mp.min_length' }] });
    expect((await post('/update/', { policy_json: { 'mp.min_length': { policy: 1000 } } })).status).toBe(200);
  });

  test("'auto' on a non-removable key, unknown keys and readonly keys are refused", async () => {
    for (const policy_json of [
      { 'mp.min_length': { policy: 'auto' } },
      { 'no.such': { policy: true } },
      { 'vault.encryption': { policy: 'aes_256_gcm' } },
      { 'sharing.scope': { policy: 'everyone' } },
    ]) {
      expect((await post('/update/', { policy_json })).status, JSON.stringify(policy_json)).toBe(400);
    }
  });

  test('include / exclude must name members of the team', async () => {
    const res = await post('/update/', { policy_json: { 'tfa.required': { policy: true, include: ['stranger@else.example'] } } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'invalid_input', description: expect.stringContaining('stranger@else.example') });
  });
});

describe('group policy', () => {
  test("a group without a policy reads as code 'not_found' (an empty policy); an unknown group is a 404", async () => {
    await setGroup('g2', {});
    expect((await post('/group/', { group_id: G.g2 })).body).toMatchObject({
      code: 'not_found',
      group: { policy_override: false },
    });
    const missing = await post('/group/', { group_id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(404);
  });

  test('saving sets the override and priority; an empty set resets them to false and 999999', async () => {
    const saved = await setGroup('g2', { 'tfa.required': true }, { 'tfa.required': true, 'export.allowed': true }, 7);
    expect(saved.group).toMatchObject({ policy_override: true, priority_level: 7 });
    expect((await post('/group/', { group_id: G.g2 })).body).toMatchObject({
      code: 'ok',
      policy_json: { 'tfa.required': true },
      // Flags for keys the group does not set are dropped.
      not_enforced_json: { 'tfa.required': true },
      priority_level: 7,
    });
    const cleared = await setGroup('g2', {});
    expect(cleared.group).toMatchObject({ policy_override: false, priority_level: NO_PRIORITY });
    const [row] = await h.db.query<{ policy_override: boolean; priority_level: number }>(
      'select policy_override, priority_level from groups where id = $1',
      [G.g2],
    );
    expect(row).toEqual({ policy_override: false, priority_level: NO_PRIORITY });
  });

  test('without a priority a new override takes the next free one; team-wide keys are refused', async () => {
    await setGroup('g1', { 'tfa.required': true }, {}, 4);
    await setGroup('g2', {});
    const saved = await setGroup('g2', { 'tfa.required': true });
    expect(saved.group.priority_level).toBeGreaterThan(4);
    const refused = await post('/group/update/', { group_id: G.g2, policy_json: { 'cloud_sync.enabled': false } });
    expect(refused.status).toBe(400);
  });

  test('the group list shows overrides first, by priority', async () => {
    await setGroup('g1', { 'tfa.required': true }, {}, 1);
    const res = await post('/groups/', {});
    const groups = (res.body as { groups: { id: string; priority_level: number; member_count: number }[] }).groups;
    expect(groups.find((g) => g.id === G.g1)).toMatchObject({ priority_level: 1, member_count: 2 });
    const levels = groups.map((g) => g.priority_level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    expect(levels.at(-1)).toBe(NO_PRIORITY);
  });
});

describe('impact preview', () => {
  test('counts the members whose effective policy would change, without saving', async () => {
    await resetTeam();
    await setGroup('g1', {});
    await setGroup('g2', {});
    const res = await post('/impact/', {
      scope: 'group',
      group_id: G.g1,
      policy_json: { 'tfa.required': true },
      not_enforced_json: {},
    });
    expect(res.body).toEqual({ affected_members: 2, total_members: expect.any(Number) });
    const team = await post('/impact/', {
      scope: 'team',
      policy_json: { 'tfa.required': { policy: true, include: [M.g1, M.none] } },
    });
    expect((team.body as { affected_members: number }).affected_members).toBe(2);
    const none = await post('/impact/', { scope: 'team', policy_json: { 'tfa.required': { policy: false } } });
    // false is the default, but enforcing it still changes what the apps allow.
    expect((none.body as { affected_members: number; total_members: number }).affected_members).toBe(
      (none.body as { total_members: number }).total_members,
    );
    expect((await post('/group/', { group_id: G.g1 })).body).toMatchObject({ code: 'not_found' });
  });
});

describe('history', () => {
  test('every change is recorded with who, scope and the full before and after; the diff is per key', async () => {
    await resetTeam();
    await post('/update/', { policy_json: { 'tfa.required': { policy: true }, 'autolock.minutes': { policy: 5 } } }, 'admin');
    const page = await post('/history/', { page: 1, page_size: 2 });
    expect(page.status, page.text).toBe(200);
    const body = page.body as {
      results: { id: string; actor_email: string; scope: string; changed_keys: string[] }[];
      count: number;
      pages: number;
    };
    expect(body.results).toHaveLength(2);
    expect(body.pages).toBe(Math.ceil(body.count / 2));
    const latest = body.results[0];
    expect(latest).toMatchObject({
      actor_email: DEMO_ADMINS.admin,
      scope: 'team',
      changed_keys: ['tfa.required', 'autolock.minutes'],
      // Made directly, not under four-eyes approval.
      approved_by: [],
    });
    const diff = await post('/history/diff/', { id: latest?.id });
    expect(diff.body).toMatchObject({
      before: { policy_json: { 'autolock.minutes': { policy: 15 } } },
      after: { policy_json: { 'tfa.required': { policy: true }, 'autolock.minutes': { policy: 5 } } },
      changes: [
        { key: 'tfa.required', kind: 'added', before: null, after: { policy: true } },
        { key: 'autolock.minutes', kind: 'changed', before: { policy: 15 }, after: { policy: 5 } },
      ],
    });
    const second = await post('/history/', { page: 2, page_size: 2 });
    expect((second.body as { results: { id: string }[] }).results[0]?.id).not.toBe(latest?.id);
  });

  test('group changes record the group, its not-enforced flags and priority', async () => {
    await setGroup('g2', {});
    await setGroup('g2', { 'export.allowed': true }, { 'export.allowed': true }, 9);
    const [latest] = (await post('/history/', { page: 1, page_size: 1 })).body.results as { id: string }[];
    const diff = await post('/history/diff/', { id: latest?.id });
    expect(diff.body).toMatchObject({
      entry: { scope: 'group', group_name: 'Policy test g2', group_id: G.g2 },
      changes: [
        { key: 'export.allowed', kind: 'added', after: { policy: true, not_enforced: true } },
        { key: 'priority_level', kind: 'added', after: 9 },
      ],
    });
  });

  test('restore makes a past version current again, as a new change', async () => {
    await resetTeam();
    await post('/update/', { policy_json: { 'export.allowed': { policy: true } } });
    const [wanted] = (await post('/history/', { page: 1, page_size: 1 })).body.results as { id: string }[];
    await post('/update/', { policy_json: { 'export.allowed': { policy: 'auto' }, 'import.allowed': { policy: false } } });
    const restored = await post('/history/restore/', { id: wanted?.id }, 'admin');
    expect(restored.status, restored.text).toBe(200);
    const policy = (await post('/', {})).body.policy_json as Record<string, unknown>;
    expect(policy['export.allowed']).toEqual({ policy: true });
    expect(policy).not.toHaveProperty(['import.allowed']);
    const [latest] = (await post('/history/', { page: 1, page_size: 1 })).body.results as {
      id: string;
      action: string;
      restored_from: string;
    }[];
    expect(latest).toMatchObject({ id: (restored.body as { id: string }).id, action: 'restore', restored_from: wanted?.id });
  });

  test('restoring a group version brings back its policy and priority', async () => {
    await setGroup('g1', { 'generator.length': 32 }, {}, 6);
    const [wanted] = (await post('/history/', { page: 1, page_size: 1 })).body.results as { id: string }[];
    await setGroup('g1', {});
    expect((await post('/history/restore/', { id: wanted?.id })).status).toBe(200);
    expect((await post('/group/', { group_id: G.g1 })).body).toMatchObject({
      code: 'ok',
      policy_json: { 'generator.length': 32 },
      priority_level: 6,
    });
  });

  test('another team cannot read or restore this team’s changes', async () => {
    const [latest] = (await post('/history/', { page: 1, page_size: 1 })).body.results as { id: string }[];
    const [family] = await h.db.query<{ id: string }>("select id from teams where slug = 'sam-family'");
    const [mine] = await h.db.query<{ team_id: string }>('select team_id from policy_history where id = $1', [latest?.id]);
    expect(mine?.team_id).not.toBe(family?.id);
    expect((await post('/history/diff/', { id: '999999999' })).status).toBe(404);
  });

  test('a change that relaxes a rule for someone also writes policy.relaxed (with its keys); a tightening one does not', async () => {
    const relaxedEvents = async () =>
      (
        await h.db.query<{ target: string; detail: { scope: string; keys: string; history_id: string } }>(
          `select event->>'target' as target, event->'detail' as detail from event_outbox
            where event->>'activity' = 'policy.relaxed' order by seq`,
        )
      ).map((e) => ({ target: e.target, scope: e.detail.scope, keys: e.detail.keys }));
    await resetTeam();
    const before = (await relaxedEvents()).length;
    const newEvents = async () => (await relaxedEvents()).slice(before);
    // Tighter: five minutes instead of fifteen.
    expect((await post('/update/', { policy_json: { 'autolock.minutes': { policy: 5 } } })).status).toBe(200);
    expect(await newEvents()).toEqual([]);
    // Looser: an hour, and two-factor sign-in no longer required.
    await post('/update/', { policy_json: { 'tfa.required': { policy: true } } });
    await post('/update/', { policy_json: { 'autolock.minutes': { policy: 60 }, 'tfa.required': { policy: 'auto' } } });
    const [loose] = (await post('/history/', { page: 1, page_size: 1 })).body.results as { id: string }[];
    expect(await newEvents()).toEqual([{ target: 'team', scope: 'team', keys: 'autolock.minutes,tfa.required' }]);
    // Tighter again, then the loose version restored: the restore relaxes.
    await post('/update/', { policy_json: { 'autolock.minutes': { policy: 5 } } });
    expect((await post('/history/restore/', { id: loose?.id })).status).toBe(200);
    expect((await newEvents()).map((e) => e.keys)).toEqual(['autolock.minutes,tfa.required', 'autolock.minutes']);
    // A group's members given a looser value than the team's.
    await setGroup('g2', { 'autolock.minutes': 1 });
    await setGroup('g2', { 'autolock.minutes': 240 });
    expect((await newEvents()).at(-1)).toEqual({ target: 'Policy test g2', scope: 'group', keys: 'autolock.minutes' });
    expect(await newEvents()).toHaveLength(3);
    await setGroup('g2', {});
  });

  test('a change and its history entry land together: a refused change leaves no entry', async () => {
    const before = (await post('/history/', {})).body.count as number;
    await post('/update/', { policy_json: { 'tfa.required': { policy: true, include: ['stranger@else.example'] } } });
    await post('/group/update/', { group_id: '00000000-0000-4000-8000-000000000000', policy_json: { 'tfa.required': true } });
    expect((await post('/history/', {})).body.count).toBe(before);
  });
});

describe('access', () => {
  const calls: [string, unknown][] = [
    ['/', {}],
    ['/update/', { policy_json: { 'tfa.required': { policy: true } } }],
    ['/groups/', {}],
    ['/group/', { group_id: '00000000-0000-4000-8000-000000000000' }],
    ['/group/update/', { group_id: '00000000-0000-4000-8000-000000000000', policy_json: {} }],
    ['/history/', {}],
    ['/history/diff/', { id: '1' }],
    ['/history/restore/', { id: '1' }],
    ['/impact/', { scope: 'team', policy_json: {} }],
    ['/member/effective/', { email: M.none }],
  ];

  test('integrators, recovery agents and family teams are refused every policy call', async () => {
    for (const who of ['integrator', 'recoveryAgent', 'family']) {
      for (const [path, body] of calls) {
        const res = await post(path, body, who);
        expect(res.status, `${who} ${path}`).toBe(403);
        expect(res.body).toMatchObject({ code: 'forbidden' });
      }
    }
  });

  test('without a session every call is refused', async () => {
    for (const [path, body] of calls) expect((await h.post(`${P}${path}`, body)).status, path).toBe(401);
  });

  test('history needs an enterprise, standard or starter plan; the policy itself does not', async () => {
    await h.db.query("update teams set organization_type = 'teams' where slug = 'northwind'");
    try {
      for (const path of ['/history/', '/history/diff/', '/history/restore/']) {
        expect((await post(path, { id: '1' }, 'admin')).status, path).toBe(403);
      }
      expect((await post('/', {}, 'admin')).status).toBe(200);
    } finally {
      await h.db.query("update teams set organization_type = 'enterprise' where slug = 'northwind'");
    }
  });
});
