import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAuth, registerDevice, send } from '../../testing/clients.ts';
import { createHubDb, type RunningHub, startHub, TEAM } from '../../testing/hub-fixture.ts';

let db: Db;
let hub: RunningHub;
let admin: Record<string, string>;
let ava: Record<string, string>;
let ben: Record<string, string>;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
  admin = await consoleAuth(hub);
  ava = await registerDevice(hub, 'ava@northwind.example');
  ben = await registerDevice(hub, 'ben@northwind.example');
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

type Links = { results: { share_id: string; email: string; views: number; view_limit: number }[]; total: number; pages: number };
const create = (device: Record<string, string>, body: Record<string, unknown>) =>
  send<{ share_id: string; expires_at: string; code?: string }>(hub, '/api/v1/client/shares/create/', body, device);
const view = (device: Record<string, string>, share_id: string) =>
  send<{ views: number; code?: string }>(hub, '/api/v1/client/shares/view/', { share_id }, device);
const links = (body: Record<string, unknown> = {}, headers = admin) =>
  send<Links>(hub, '/api/v1/sharing/links/', { team_slug: TEAM, ...body }, headers);

describe('share links from the apps', () => {
  it('records a link within the default limits (168 hours, 10 views)', async () => {
    const res = await create(ava, { label: 'Wi-Fi', expires_in_hours: 24, view_limit: 3 });
    expect(res.status).toBe(200);
    const hours = (Date.parse(res.body.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect((await create(ava, { expires_in_hours: 169, view_limit: 3 })).body).toMatchObject({ code: 'sharing_limit_exceeded' });
    expect((await create(ava, { expires_in_hours: 1, view_limit: 11 })).body).toMatchObject({ code: 'sharing_limit_exceeded' });
  });

  it('enforces the limits the super admin sets', async () => {
    const set = await send(hub, '/api/v1/sharing/limits/update/', { team_slug: TEAM, max_expiry_hours: 48, max_views: 2 }, admin);
    expect(set).toEqual({ status: 200, body: { max_expiry_hours: 48, max_views: 2 } });
    expect((await send(hub, '/api/v1/sharing/limits/', { team_slug: TEAM }, admin)).body).toEqual({
      max_expiry_hours: 48,
      max_views: 2,
    });
    const tooLong = await create(ben, { expires_in_hours: 49, view_limit: 1 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({ code: 'sharing_limit_exceeded' });
    expect((await create(ben, { expires_in_hours: 48, view_limit: 3 })).status).toBe(400);
    expect((await create(ben, { expires_in_hours: 48, view_limit: 2 })).status).toBe(200);
    // Out-of-bounds limits are refused.
    const bad = await send(hub, '/api/v1/sharing/limits/update/', { team_slug: TEAM, max_expiry_hours: 0, max_views: 2 }, admin);
    expect(bad.status).toBe(400);
  });

  it('counts views until the limit, then refuses', async () => {
    const link = await create(ben, { expires_in_hours: 1, view_limit: 2 });
    expect((await view(ava, link.body.share_id)).body).toEqual({ views: 1, view_limit: 2 });
    expect((await view(ava, link.body.share_id)).body).toEqual({ views: 2, view_limit: 2 });
    const third = await view(ava, link.body.share_id);
    expect(third.status).toBe(410);
    expect(third.body).toMatchObject({ code: 'share_unavailable' });
  });
});

describe('sharing screen calls', () => {
  it('lists active links by member with their counts, and revokes', async () => {
    const before = await links();
    expect(before.status).toBe(200);
    // The used-up link is not active any more.
    expect(before.body.results.every((l) => l.views < l.view_limit)).toBe(true);
    expect(before.body.results.map((l) => l.email)).toEqual([...before.body.results.map((l) => l.email)].sort());
    const target = before.body.results.find((l) => l.email === 'ava@northwind.example');
    expect(target).toBeDefined();
    const revoked = await send(hub, '/api/v1/sharing/links/revoke/', { team_slug: TEAM, share_ids: [target?.share_id] }, admin);
    expect(revoked).toEqual({ status: 200, body: { revoked: 1 } });
    const after = await links();
    expect(after.body.total).toBe(before.body.total - 1);
    expect((await view(ben, target?.share_id as string)).status).toBe(410);
    // Revoking twice changes nothing.
    expect(
      (await send(hub, '/api/v1/sharing/links/revoke/', { team_slug: TEAM, share_ids: [target?.share_id] }, admin)).body,
    ).toEqual({
      revoked: 0,
    });
  });

  it('searches by member and pages', async () => {
    for (let i = 0; i < 11; i++) await create(ava, { expires_in_hours: 2, view_limit: 1 });
    const page1 = await links({ search_value: 'ava@' });
    expect(page1.body.results).toHaveLength(10);
    expect(page1.body).toMatchObject({ total: 11, pages: 2 });
    expect((await links({ search_value: 'ava@', page: 2 })).body.results).toHaveLength(1);
  });

  it('lists only active links, by member then newest, across pages', async () => {
    // An expired link and a used-up one, written as the apps would leave them.
    await db.query(
      `insert into share_links (team_slug, email, device_id, label, expires_at, view_limit, views)
       select $1, email, id, 'expired', now() - interval '1 minute', 5, 0 from devices where email = $2
       union all
       select $1, email, id, 'used up', now() + interval '1 hour', 2, 2 from devices where email = $2`,
      [TEAM, 'ava@northwind.example'],
    );
    const expected = (
      await db.query<{ id: string }>(
        `select id from share_links where team_slug = $1 and revoked_at is null and expires_at > now()
           and views < view_limit order by email, created_at desc, id`,
        [TEAM],
      )
    ).map((r) => r.id);
    const first = (await links()).body;
    expect(first.total).toBe(expected.length);
    const all: string[] = [];
    for (let page = 1; page <= first.pages; page++) all.push(...(await links({ page })).body.results.map((l) => l.share_id));
    expect(all).toEqual(expected);
  });

  it('is for the super admin only: admin, integrator and recovery agent are refused', async () => {
    for (const scope of ['admin', 'integrator', 'recovery_agent'] as const) {
      const headers = await consoleAuth(hub, [scope], `${scope}@northwind.example`);
      expect((await links({}, headers)).status).toBe(403);
      expect(
        (await send(hub, '/api/v1/sharing/links/revoke/', { team_slug: TEAM, share_ids: [crypto.randomUUID()] }, headers)).status,
      ).toBe(403);
      expect(
        (await send(hub, '/api/v1/sharing/limits/update/', { team_slug: TEAM, max_expiry_hours: 720, max_views: 1000 }, headers))
          .status,
      ).toBe(403);
    }
    expect((await send(hub, '/api/v1/sharing/limits/', { team_slug: TEAM }, admin)).body).toEqual({
      max_expiry_hours: 48,
      max_views: 2,
    });
  });

  it('does not reach another team', async () => {
    expect((await links({ team_slug: 'contoso' })).status).toBe(403);
    // A device cannot use the console calls.
    expect((await links({}, ava)).status).toBe(401);
  });
});

describe('an older Hub', () => {
  it('does not answer for audit or sharing before 2.1, but runs recovery', async () => {
    const old = await startHub(db, { HUB_VERSION: '2.0' });
    try {
      const headers = await consoleAuth(old);
      expect((await send(old, '/api/v1/sharing/links/', { team_slug: TEAM }, headers)).status).toBe(404);
      expect((await send(old, '/api/v1/audit/vault/summaries/', { team_slug: TEAM }, headers)).status).toBe(404);
      expect((await send(old, '/api/v1/client/shares/create/', { expires_in_hours: 1, view_limit: 1 }, ava)).status).toBe(404);
      expect((await send(old, '/recovery/settings/', { team_slug: TEAM }, headers)).status).toBe(200);
    } finally {
      await old.app.close();
    }
  });
});
