import { describe, expect, test } from 'vitest';
import { M, policyWorld } from '../../test/policy-world.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

const { h, P, G, post, resetTeam, setGroup } = policyWorld();

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
    const [family] = await h().db.query<{ id: string }>("select id from teams where slug = 'sam-family'");
    const [mine] = await h().db.query<{ team_id: string }>('select team_id from policy_history where id = $1', [latest?.id]);
    expect(mine?.team_id).not.toBe(family?.id);
    expect((await post('/history/diff/', { id: '999999999' })).status).toBe(404);
  });

  test('a change that relaxes a rule for someone also writes policy.relaxed (with its keys); a tightening one does not', async () => {
    const relaxedEvents = async () =>
      (
        await h().db.query<{ target: string; detail: { scope: string; keys: string; history_id: string } }>(
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
    for (const [path, body] of calls) expect((await h().post(`${P}${path}`, body)).status, path).toBe(401);
  });

  test('history needs an enterprise, standard or starter plan; the policy itself does not', async () => {
    await h().db.query("update teams set organization_type = 'teams' where slug = 'northwind'");
    try {
      for (const path of ['/history/', '/history/diff/', '/history/restore/']) {
        expect((await post(path, { id: '1' }, 'admin')).status, path).toBe(403);
      }
      expect((await post('/', {}, 'admin')).status).toBe(200);
    } finally {
      await h().db.query("update teams set organization_type = 'enterprise' where slug = 'northwind'");
    }
  });
});
