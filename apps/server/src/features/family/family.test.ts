import { FamilyBenefit, familyBenefitUpdateEndpoint } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

let h: Harness;
const tokens = new Map<string, string>();
beforeAll(async () => {
  h = await startHarness();
  tokens.set('super', (await h.signIn(DEMO_ADMINS.superAdmin)).token.access);
  tokens.set('admin', (await h.signIn(DEMO_ADMINS.admin)).token.access);
  tokens.set('family', (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
});
afterAll(() => h?.close());

const token = (who: string) => tokens.get(who) as string;
const Updated = familyBenefitUpdateEndpoint.output.strict();

const current = async () => {
  const res = await h.post('/api/v1/benefits/family/grant/type/', {}, token('super'));
  expect(res.status, res.text).toBe(200);
  return FamilyBenefit.strict().parse(res.body);
};
const update = async (body: Record<string, unknown>, who = 'super') =>
  h.post('/api/v1/benefits/family/grant/type/update/', body, token(who));
const updated = async (body: Record<string, unknown>) => {
  const res = await update({ team: 'northwind', ...body });
  expect(res.status, res.text).toBe(200);
  return Updated.parse(res.body);
};

/** Northwind's groups by name, and the current members of each. */
const groups = async () =>
  h.db.query<{ id: string; name: string; emails: string[] }>(
    `select g.id, g.name, coalesce(array_agg(m.email order by m.email) filter (where m.id is not null), '{}') as emails
     from groups g join teams t on t.id = g.team_id and t.slug = 'northwind'
     left join group_members gm on gm.group_id = g.id left join members m on m.id = gm.member_id and m.deboarded_at is null
     group by g.id, g.name order by g.name`,
  );
const holders = async () =>
  (
    await h.db.query<{ email: string }>(
      `select m.email from members m join teams t on t.id = m.team_id and t.slug = 'northwind'
       where m.family_benefit_since is not null order by m.email`,
    )
  ).map((r) => r.email);
const activeMembers = async () =>
  (
    await h.db.query<{ email: string }>(
      `select m.email from members m join teams t on t.id = m.team_id and t.slug = 'northwind' where m.deboarded_at is null`,
    )
  ).length;

describe('family plan benefit (spec §3, §4, §5, §7)', () => {
  test('starts unassigned', async () => {
    expect(await current()).toEqual({ benefit_grant_type: 'none', benefit_groups: [], members_with_benefit: 0 });
  });

  test('groups: their members get the benefit; changing the groups takes it from those no longer covered', async () => {
    const all = (await groups()).filter((g) => g.emails.length > 0);
    const [a, b] = all;
    if (!a || !b) throw new Error('the demo has groups with members');
    const first = await updated({ benefit_grant_type: 'groups', team_group_ids: [a.id, b.id] });
    const union = [...new Set([...a.emails, ...b.emails])].sort();
    expect(first).toMatchObject({ benefit_grant_type: 'groups', granted: union.length, removed: 0, removed_groups: [] });
    expect(first.benefit_groups.map((g) => g.id).sort()).toEqual([a.id, b.id].sort());
    expect(await holders()).toEqual(union);

    const second = await updated({ benefit_grant_type: 'groups', team_group_ids: [b.id] });
    const lost = union.filter((e) => !b.emails.includes(e));
    expect(second).toMatchObject({ benefit_grant_type: 'groups', granted: 0, removed: lost.length });
    expect(second.removed_groups).toEqual([{ id: a.id, name: a.name }]);
    expect(await holders()).toEqual([...b.emails].sort());
    expect((await current()).benefit_groups).toEqual([{ id: b.id, name: b.name }]);

    // Each change is recorded per member.
    const [events] = await h.db.query<{ n: number }>(
      "select count(*)::int as n from member_events where action in ('family_benefit_granted', 'family_benefit_removed')",
    );
    expect(events?.n).toBe(union.length + lost.length);
  });

  test('all members, then unassign all', async () => {
    const all = await updated({ benefit_grant_type: 'all' });
    expect(all.benefit_grant_type).toBe('all');
    expect(all.members_with_benefit).toBe(await activeMembers());
    expect(all.removed_groups.length).toBe(1);

    const none = await updated({ benefit_grant_type: 'none' });
    expect(none).toMatchObject({
      benefit_grant_type: 'none',
      benefit_groups: [],
      members_with_benefit: 0,
      removed: all.members_with_benefit,
    });
    expect(await holders()).toEqual([]);
  });

  test('groups chosen but empty count as unassigned', async () => {
    const res = await updated({ benefit_grant_type: 'groups', team_group_ids: [] });
    expect(res).toMatchObject({ benefit_grant_type: 'none', members_with_benefit: 0 });
    expect((await current()).benefit_grant_type).toBe('none');
  });

  test('a group that no longer exists: group_not_found, and nothing changes', async () => {
    const [a] = await groups();
    await updated({ benefit_grant_type: 'groups', team_group_ids: [a?.id] });
    const before = await holders();
    const res = await update({ benefit_grant_type: 'all', team_group_ids: [] });
    expect(res.status).toBe(200);
    const gone = await update({ benefit_grant_type: 'groups', team_group_ids: [a?.id, '00000000-0000-4000-8000-000000000000'] });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 'group_not_found', message_key: 'family.error.group_gone' });
    expect((await current()).benefit_grant_type).toBe('all');
    expect((await holders()).length).toBeGreaterThan(before.length);
    await updated({ benefit_grant_type: 'none' });
  });

  test("a chosen group's members changing gives or takes the benefit; removing the group takes it", async () => {
    const [a] = await groups();
    if (!a) throw new Error('the demo has groups');
    const created = await h.post('/api/v1/team/group/create/', { group: 'Family plan test', emails: [] }, token('super'));
    expect(created.status, created.text).toBe(200);
    const id = created.body.id as string;
    await updated({ benefit_grant_type: 'groups', team_group_ids: [id] });
    expect(await holders()).toEqual([]);
    const outsider = (
      await h.db.query<{ email: string }>(
        `select m.email from members m join teams t on t.id = m.team_id and t.slug = 'northwind'
         where m.deboarded_at is null order by m.email limit 1`,
      )
    )[0]?.email as string;
    expect((await h.post('/api/v1/team/group/members/add/', { id, emails: [outsider] }, token('admin'))).status).toBe(200);
    expect(await holders()).toEqual([outsider]);
    expect((await h.post('/api/v1/team/group/members/remove/', { id, emails: [outsider] }, token('admin'))).status).toBe(200);
    expect(await holders()).toEqual([]);
    await h.post('/api/v1/team/group/members/add/', { id, emails: [outsider] }, token('admin'));
    expect(await holders()).toEqual([outsider]);
    expect((await h.post('/api/v1/team/group/remove/', { id: [id] }, token('admin'))).status).toBe(200);
    expect(await holders()).toEqual([]);
    expect(await current()).toMatchObject({ benefit_grant_type: 'none', members_with_benefit: 0 });
  });

  test('bad input and other teams are refused', async () => {
    expect((await update({ benefit_grant_type: 'some' })).status).toBe(400);
    expect((await update({ benefit_grant_type: 'groups', team_group_ids: ['x'] })).status).toBe(400);
    const other = await update({ benefit_grant_type: 'all', team: 'sam-family' });
    expect(other.status).toBe(403);
    expect(await holders()).toEqual([]);
  });

  test('only the super admin of an organisation', async () => {
    expect((await update({ benefit_grant_type: 'all' }, 'admin')).status).toBe(403);
    expect((await h.post('/api/v1/benefits/family/grant/type/', {}, token('admin'))).status).toBe(403);
    expect((await h.post('/api/v1/benefits/family/grant/type/', {}, token('family'))).status).toBe(403);
    expect((await h.post('/api/v1/benefits/family/grant/type/', {})).status).toBe(401);
    expect(await holders()).toEqual([]);
  });

  test('only a team entitled to grant it (Team.benefit.grant_subscription, spec §3)', async () => {
    const info = async () => (await h.post('/api/v1/team/info/', {}, token('super'))).body as Record<string, unknown>;
    expect((await info()).benefit).toEqual({ grant_subscription: true });
    await h.db.query("update teams set benefit_grant_subscription = false where slug = 'northwind'");
    try {
      expect((await info()).benefit).toEqual({ grant_subscription: false });
      const read = await h.post('/api/v1/benefits/family/grant/type/', {}, token('super'));
      expect(read.status).toBe(403);
      expect(read.body).toMatchObject({ code: 'forbidden' });
      expect((await update({ benefit_grant_type: 'all' })).status).toBe(403);
      expect(await holders()).toEqual([]);
    } finally {
      await h.db.query("update teams set benefit_grant_subscription = true where slug = 'northwind'");
    }
    expect((await h.post('/api/v1/benefits/family/grant/type/', {}, token('super'))).status).toBe(200);
  });
});
