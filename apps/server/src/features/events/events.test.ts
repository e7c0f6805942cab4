import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { peopleRepository } from '../people/index.ts';
import { fromAction } from './record-event.ts';

let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness({ hub: true, env: { EVENT_FORWARD_INTERVAL_MS: '100' } });
  token = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
}, 60_000);
afterAll(async () => {
  await h.close();
});

/** The Hub's copy of the team's events, by activity. */
async function atHub(activity: string) {
  return (
    (await h.hub?.db.query<{ id: string; actor: string; target: string; component: string; outcome: string }>(
      "select id::text as id, actor, target, component, outcome from event_log where team_slug = 'northwind' and activity = $1",
      [activity],
    )) ?? []
  );
}
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const outbox = async () => (await h.db.query<{ n: number }>('select count(*)::int as n from event_outbox'))[0]?.n ?? 0;

describe('the server records its actions and the Hub gets them', () => {
  test('sign-in and a failed password, as the admin, from the auth component', async () => {
    await h.post('/api/v1/console/auth/verify/password/', {
      email: DEMO_ADMINS.superAdmin,
      password: 'not-the-password',
      team_slug: 'northwind',
    });
    const ins = await until(
      () => atHub('auth.sign_in'),
      (r) => r.length > 0,
    );
    expect(ins[0]).toMatchObject({ actor: DEMO_ADMINS.superAdmin, component: 'auth', outcome: 'success' });
    const failed = await until(
      () => atHub('auth.sign_in_failed'),
      (r) => r.length > 0,
    );
    expect(failed[0]).toMatchObject({ component: 'auth', outcome: 'failure' });
  });

  test('a group created in the console arrives with who did it and its name', async () => {
    const res = await h.post('/api/v1/team/group/create/', { group: 'Event auditors' }, token);
    expect(res.status).toBe(200);
    const rows = await until(
      () => atHub('group.created'),
      (r) => r.some((e) => e.target === 'Event auditors'),
    );
    expect(rows.find((e) => e.target === 'Event auditors')).toMatchObject({ actor: DEMO_ADMINS.superAdmin, component: 'groups' });
  });

  test('an event made while the Hub is down arrives once it is back, exactly once', async () => {
    await h.hub?.stop();
    const res = await h.post('/api/v1/team/group/create/', { group: 'Made while down' }, token);
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await outbox()).toBeGreaterThan(0);
    await h.hub?.restart();
    const rows = await until(
      () => atHub('group.created'),
      (r) => r.some((e) => e.target === 'Made while down'),
      30_000,
    );
    expect(rows.filter((e) => e.target === 'Made while down')).toHaveLength(1);
    expect(await until(outbox, (n) => n === 0)).toBe(0);
  }, 60_000);

  test('a rolled-back change records nothing', async () => {
    const before = (await atHub('group.created')).length;
    const dup = await h.post('/api/v1/team/group/create/', { group: 'Event auditors' }, token);
    expect(dup.status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await atHub('group.created')).length).toBe(before);
  });
});

test('action names map to activities and components', () => {
  expect(fromAction('member_invited')).toEqual({ activity: 'member.invited', component: 'members' });
  expect(fromAction('groups_removed')).toEqual({ activity: 'groups.removed', component: 'groups' });
  expect(fromAction('logo_updated')).toEqual({ activity: 'logo.updated', component: 'branding' });
});

describe('actions no admin made keep their actor type', () => {
  const byTarget = async (target: string) =>
    (await h.hub?.db.query<{ actor: string; actor_type: string; activity: string; component: string }>(
      "select actor, actor_type, activity, component from event_log where team_slug = 'northwind' and target = $1",
      [target],
    )) ?? [];

  test('a billing change by the super admin is an admin event of the billing component', async () => {
    const to = `ap.${Date.now()}@northwind.example`;
    expect((await h.post('/api/v1/billing/email/update/', { billing_email: to }, token)).status).toBe(200);
    const seen = await until(
      () => byTarget(DEMO_ADMINS.superAdmin),
      (rows) => rows.some((r) => r.activity === 'billing.email_changed'),
    );
    expect(seen.find((r) => r.activity === 'billing.email_changed')).toMatchObject({
      actor: DEMO_ADMINS.superAdmin,
      actor_type: 'admin',
      component: 'billing',
    });
  });

  test('a change a SCIM connector made is a scim event, named by its connector', async () => {
    const email = `scim.${Date.now()}@northwind.example`;
    const [team] = await h.db.query<{ id: string }>("select id from teams where slug = 'northwind'");
    await h.db.transaction((tx) =>
      peopleRepository.recordEvents(tx, team?.id ?? '', null, 'member_invited', [email], {
        actor_type: 'scim',
        connector: 'c-1',
      }),
    );
    const seen = await until(
      () => byTarget(email),
      (rows) => rows.length > 0,
    );
    expect(seen).toEqual([{ actor: 'scim:c-1', actor_type: 'scim', activity: 'member.invited', component: 'members' }]);
  });
});
