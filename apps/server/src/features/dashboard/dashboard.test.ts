import { ActivityStats, LicenceSummary, Notification, ProvisioningEntry } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { daysLeft } from './dashboard.service.ts';

let h: Harness;
const tokens = new Map<string, string>();
beforeAll(async () => {
  h = await startHarness();
  for (const [role, email] of Object.entries(DEMO_ADMINS)) tokens.set(role, (await h.signIn(email)).token.access);
  tokens.set('family', (await h.signIn(DEMO_ADMINS.twoTeams, 'sam-family')).token.access);
});
afterAll(() => h?.close());

const token = (who: string) => tokens.get(who) as string;

describe('rules (unit)', () => {
  test('days left counts whole UTC days, 0 on the last day, negative after', () => {
    const now = new Date('2026-03-10T23:30:00Z');
    expect(daysLeft('2026-03-13', now)).toBe(3);
    expect(daysLeft('2026-03-10', now)).toBe(0);
    expect(daysLeft('2026-03-09', now)).toBe(-1);
  });
});

describe('dashboard', () => {
  test('activity counts current members by usage and licence', async () => {
    const stats = async () => {
      const res = await h.post('/api/v1/dashboard/stats/activity/', {}, token('admin'));
      expect(res.status, res.text).toBe(200);
      return ActivityStats.strict().parse(res.body);
    };
    const before = await stats();
    expect(before.active_members + before.inactive_members + before.unresponsive_members).toBeGreaterThan(200);
    // Members this test adds and knows: 3 active, 2 inactive without a licence, 1 unresponsive, and
    // a former active member who must not count.
    const stamp = Date.now().toString(36);
    const added = [
      ...[1, 2, 3].map((n) => [`act${n}.${stamp}@northwind.example`, 'active', true, false] as const),
      ...[1, 2].map((n) => [`ina${n}.${stamp}@northwind.example`, 'inactive', false, false] as const),
      [`unr.${stamp}@northwind.example`, 'unresponsive', true, false] as const,
      [`gone.${stamp}@northwind.example`, 'active', true, true] as const,
    ];
    for (const [email, usage, licensed, gone] of added) {
      await h.db.query(
        `insert into members (team_id, email, usage, licensed, deboarded_at)
         values ((select id from teams where slug = 'northwind'), $1, $2, $3, case when $4 then now() end)`,
        [email, usage, licensed, gone],
      );
    }
    try {
      expect(await stats()).toEqual({
        ...before,
        active_members: before.active_members + 3,
        inactive_members: before.inactive_members + 2,
        unresponsive_members: before.unresponsive_members + 1,
        unlicensed_members: before.unlicensed_members + 2,
      });
    } finally {
      await h.db.query('delete from members where email like $1', [`%.${stamp}@northwind.example`]);
    }
  });

  test('provisioning has 12 months, oldest first, with joiners and leavers', async () => {
    const res = await h.post('/api/v1/dashboard/stats/provisioning/data/', {}, token('superAdmin'));
    const { data } = z.object({ data: z.array(ProvisioningEntry.strict()) }).parse(res.body);
    expect(data).toHaveLength(12);
    expect(data.map((d) => d.date)).toEqual([...data.map((d) => d.date)].sort((a, b) => a - b));
    const now = new Date();
    expect(data.at(-1)).toMatchObject({ year: now.getUTCFullYear(), month: String(now.getUTCMonth() + 1).padStart(2, '0') });
    expect(data.reduce((n, d) => n + d.onboarded, 0)).toBeGreaterThan(200);
    expect(data.reduce((n, d) => n + d.deboarded, 0)).toBeGreaterThan(0);
  });

  test('licence summary: licensed members of the bought licences', async () => {
    const res = await h.post('/api/v1/dashboard/stats/licence/summary/', {}, token('admin'));
    const summary = LicenceSummary.strict().parse(res.body);
    expect(summary.total_subscriptions - summary.active_subscriptions).toBe(6);
  });

  test('notification: trial days left for a family trial, nothing for a billed team', async () => {
    const family = Notification.strict().parse((await h.post('/organization/notification/', {}, token('family'))).body);
    expect(family).toMatchObject({ code: 'trial', days_left: 2 });
    const billed = Notification.strict().parse((await h.post('/organization/notification/', {}, token('admin'))).body);
    expect(billed).toEqual({ code: null, days_left: null, notification: null });
  });

  test('analytics events are recorded', async () => {
    const res = await h.post(
      '/api/v1/admin/console/analytics/events/add/',
      { interaction_type: 'click', object: 'adoption_segment', section: 'dashboard' },
      token('integrator'),
    );
    expect(res.body).toEqual({ code: 'recorded' });
    const [row] = await h.db.query<{ n: number }>(
      `select count(*)::int as n from analytics_events where object = 'adoption_segment'`,
    );
    expect(row?.n).toBe(1);
  });
});
