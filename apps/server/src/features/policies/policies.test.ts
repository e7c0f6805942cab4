import { NO_PRIORITY } from '@latchkey/contracts';
import { describe, expect, test } from 'vitest';
import { M, policyWorld } from '../../test/policy-world.ts';

const { h, G, token, post, resetTeam, setGroup, effective } = policyWorld();

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
    expect((await h().post('/api/v1/team/info/', {}, token('admin'))).body).toMatchObject({ is_team_policy_present: true });
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
    const [row] = await h().db.query<{ policy_override: boolean; priority_level: number }>(
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
