import { deviceFromUserAgent } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { recordMemberEvents } from '../members/index.ts';
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

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
/** A console call as a browser makes it: its User-Agent says which device. */
const asBrowser = (path: string, body: unknown, access: string) =>
  fetch(h.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${access}`, 'user-agent': FIREFOX_WINDOWS },
    body: JSON.stringify(body),
  });
type HubRow = { actor: string; ip: string; device: string; detail: Record<string, unknown>; target: string };
const hubRows = async (activity: string) =>
  (await h.hub?.db.query<HubRow>(
    "select actor, ip, device, detail, target from event_log where team_slug = 'northwind' and activity = $1",
    [activity],
  )) ?? [];

describe('where a console action came from, team switches', () => {
  test('a console action carries the request IP and the device from its User-Agent', async () => {
    expect((await asBrowser('/api/v1/team/group/create/', { group: 'From Firefox' }, token)).status).toBe(200);
    const rows = await until(
      () => hubRows('group.created'),
      (r) => r.some((e) => e.target === 'From Firefox'),
    );
    expect(rows.find((e) => e.target === 'From Firefox')).toMatchObject({ ip: '127.0.0.1', device: 'Firefox 133 on Windows' });
  });

  test('a team switch is its own event (not a sign-out), with the team switched to', async () => {
    const session = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
    const signOutsBefore = (
      await until(
        () => hubRows('auth.sign_out'),
        () => true,
      )
    ).length;
    const res = await asBrowser('/api/v1/user/signout/', { reason: 'team_switch', to_team: 'contoso' }, session);
    expect(res.status).toBe(200);
    const rows = await until(
      () => hubRows('auth.team_switch'),
      (r) => r.length > 0,
    );
    expect(rows[0]).toMatchObject({
      actor: DEMO_ADMINS.superAdmin,
      ip: '127.0.0.1',
      device: 'Firefox 133 on Windows',
      detail: { from_team: 'northwind', to_team: 'contoso' },
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await hubRows('auth.sign_out')).length).toBe(signOutsBefore);
    // The session ended all the same.
    expect((await asBrowser('/api/v1/team/group/create/', { group: 'After switch' }, session)).status).toBe(401);
  });
});

test('devices from User-Agents', () => {
  expect(deviceFromUserAgent(FIREFOX_WINDOWS)).toBe('Firefox 133 on Windows');
  expect(
    deviceFromUserAgent(
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    ),
  ).toBe('Chrome 131 on macOS');
  expect(
    deviceFromUserAgent(
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    ),
  ).toBe('Edge 131 on Windows');
  expect(
    deviceFromUserAgent(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    ),
  ).toBe('Safari 17 on iOS');
  expect(
    deviceFromUserAgent(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    ),
  ).toBe('Chrome 131 on Linux');
  expect(deviceFromUserAgent('curl/8.5.0')).toBe('curl 8.5.0');
  expect(deviceFromUserAgent('')).toBe('');
  expect(deviceFromUserAgent(undefined)).toBe('');
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
      recordMemberEvents(tx, team?.id ?? '', null, 'member_invited', [email], {
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
