import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAuth, registerDevice, send } from '../../testing/clients.ts';
import { consoleSessions, createHubDb, type RunningHub, startHub, TEAM } from '../../testing/hub-fixture.ts';

let db: Db;
let hub: RunningHub;
let admin: Record<string, string>;
let agent: Record<string, string>;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
  admin = await consoleAuth(hub);
  agent = await consoleAuth(hub, ['recovery_agent'], 'rory@northwind.example');
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

type Requests = {
  results: { id: string; email: string; state: string; approved_by: string | null; link_expires_at: string | null }[];
  total: number;
};
type Admins = { results: { id: string; email: string; state: string }[]; total: number; pages: number };
const requests = (body: Record<string, unknown> = {}, headers = admin) =>
  send<Requests>(hub, '/organization/recovery/admin/requests/fetch/', { team_slug: TEAM, ...body }, headers);
const admins = (body: Record<string, unknown> = {}, headers = admin) =>
  send<Admins>(hub, '/recovery/admins/fetch/', { team_slug: TEAM, ...body }, headers);
const settings = (headers = admin) => send<Record<string, unknown>>(hub, '/recovery/settings/', { team_slug: TEAM }, headers);

describe("members' recovery requests", () => {
  it('an app asks once; the request waits for a recovery admin', async () => {
    const ava = await registerDevice(hub, 'ava@northwind.example');
    const first = await send<{ request_id: string; state: string }>(hub, '/api/v1/client/recovery/requests/create/', {}, ava);
    expect(first).toMatchObject({ status: 200, body: { state: 'pending' } });
    const again = await send<{ request_id: string }>(hub, '/api/v1/client/recovery/requests/create/', {}, ava);
    expect(again.body.request_id).toBe(first.body.request_id);
    const list = await requests({}, agent);
    expect(list.body.results).toEqual([
      expect.objectContaining({ email: 'ava@northwind.example', state: 'pending', link_expires_at: null }),
    ]);
  });

  it('a recovery admin approves: the link lasts the link expiration period (default 120 minutes)', async () => {
    const res = await send(
      hub,
      '/organization/recovery/admin/request/',
      { team_slug: TEAM, emails: ['AVA@northwind.example'], state: 'approved' },
      agent,
    );
    expect(res).toEqual({ status: 200, body: { approved: 1 } });
    const [approved] = (await requests({ state: 'approved' })).body.results;
    expect(approved).toMatchObject({ email: 'ava@northwind.example', approved_by: 'rory@northwind.example' });
    const minutes = (Date.parse(approved?.link_expires_at as string) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(119);
    expect(minutes).toBeLessThanOrEqual(120);
    // The member's app sees the approval; another member's app does not see the request at all.
    const ava = await registerDevice(hub, 'ava@northwind.example');
    const status = await send(hub, '/api/v1/client/recovery/requests/status/', { request_id: approved?.id }, ava);
    expect(status.body).toMatchObject({ state: 'approved' });
    const ben = await registerDevice(hub, 'ben@northwind.example');
    expect((await send(hub, '/api/v1/client/recovery/requests/status/', { request_id: approved?.id }, ben)).status).toBe(404);
    // Approving again changes nothing; only the approve state is accepted.
    expect(
      (
        await send(
          hub,
          '/organization/recovery/admin/request/',
          { team_slug: TEAM, emails: ['ava@northwind.example'], state: 'approved' },
          agent,
        )
      ).body,
    ).toEqual({ approved: 0 });
    expect(
      (
        await send(
          hub,
          '/organization/recovery/admin/request/',
          { team_slug: TEAM, emails: ['ava@northwind.example'], state: 'pending' },
          agent,
        )
      ).status,
    ).toBe(400);
  });

  it('deleting an approved request with a live link needs force_delete', async () => {
    const [approved] = (await requests({ state: 'approved' })).body.results;
    const refused = await send(hub, '/organization/recovery/admin/request/delete/', { team_slug: TEAM, id: approved?.id }, admin);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'recovery_in_progress' });
    const forced = await send(
      hub,
      '/organization/recovery/admin/request/delete/',
      { team_slug: TEAM, id: approved?.id, force_delete: true },
      admin,
    );
    expect(forced).toEqual({ status: 200, body: { deleted: true } });
    expect((await requests()).body.total).toBe(0);
    // A pending one goes without force.
    const ben = await registerDevice(hub, 'ben@northwind.example');
    const created = await send<{ request_id: string }>(hub, '/api/v1/client/recovery/requests/create/', {}, ben);
    const plain = await send(
      hub,
      '/organization/recovery/admin/request/delete/',
      { team_slug: TEAM, id: created.body.request_id },
      agent,
    );
    expect(plain.status).toBe(200);
  });

  it('filters by state and searches', async () => {
    for (const name of ['chloe', 'dev', 'elif'])
      await send(hub, '/api/v1/client/recovery/requests/create/', {}, await registerDevice(hub, `${name}@northwind.example`));
    await send(
      hub,
      '/organization/recovery/admin/request/',
      { team_slug: TEAM, emails: ['dev@northwind.example'], state: 'approved' },
      admin,
    );
    expect((await requests({ state: 'pending' })).body.total).toBe(2);
    expect((await requests({ state: 'approved' })).body.results.map((r) => r.email)).toEqual(['dev@northwind.example']);
    expect((await requests({ search_value: 'eli' })).body.results.map((r) => r.email)).toEqual(['elif@northwind.example']);
  });
});

describe('recovery admins', () => {
  it('a member without a device key cannot be nominated', async () => {
    await registerDevice(hub, 'gus@northwind.example');
    const verify = await send(hub, '/user/key/verify/', { team_slug: TEAM, emails: ['gus@northwind.example'] }, admin);
    expect(verify.body).toEqual({ results: [{ email: 'gus@northwind.example', verified: false }] });
    const res = await send(
      hub,
      '/recovery/create/admin/request/',
      { team_slug: TEAM, email: 'gus@northwind.example', teamuser_id: 'gus' },
      admin,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'user_key_missing' });
  });

  it('refuses a member who does not hold the Recovery admin role on the server, and fails closed when it cannot ask', async () => {
    await registerDevice(hub, 'ivo@northwind.example', { publicKey: 'aXZvLWtleQ==' });
    const nominate = () =>
      send(
        hub,
        '/recovery/create/admin/request/',
        { team_slug: TEAM, email: 'ivo@northwind.example', teamuser_id: 'ivo' },
        admin,
      );
    consoleSessions.roles.set('ivo@northwind.example', ['admin']);
    try {
      const refused = await nominate();
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'recovery_role_required', message_key: 'errors.recovery_role_required' });
      consoleSessions.roles.set('ivo@northwind.example', ['recovery_agent']);
      consoleSessions.down = true;
      const unreachable = await nominate();
      expect(unreachable.status).toBe(503);
      expect(unreachable.body).toMatchObject({ code: 'server_unreachable' });
    } finally {
      consoleSessions.down = false;
      consoleSessions.roles.delete('ivo@northwind.example');
    }
    expect((await send(hub, '/recovery/fetch/admin/request/', { team_slug: TEAM }, admin)).body).toEqual({ requests: [] });
  });

  it('is added by request and becomes active when the member approves from a device with a key', async () => {
    const hana = await registerDevice(hub, 'hana@northwind.example', { publicKey: 'aGFuYS1rZXk=' });
    expect((await send(hub, '/user/key/verify/', { team_slug: TEAM, emails: ['hana@northwind.example'] }, admin)).body).toEqual({
      results: [{ email: 'hana@northwind.example', verified: true }],
    });
    const created = await send<{ request: { id: string; state: string; user: { email: string } } }>(
      hub,
      '/recovery/create/admin/request/',
      { team_slug: TEAM, email: 'hana@northwind.example', teamuser_id: 'hana', device: { browser: 'Chromium' } },
      admin,
    );
    expect(created.body.request).toMatchObject({ state: 'pending', user: { email: 'hana@northwind.example' } });
    const duplicate = await send(
      hub,
      '/recovery/create/admin/request/',
      { team_slug: TEAM, email: 'hana@northwind.example', teamuser_id: 'hana' },
      admin,
    );
    expect(duplicate.status).toBe(409);
    expect((await send(hub, '/recovery/fetch/admin/request/', { team_slug: TEAM }, admin)).body).toEqual({
      requests: [created.body.request],
    });
    const uid = created.body.request.id;
    expect(
      (await send(hub, '/group/member/secret/verify/', { team_slug: TEAM, email: 'hana@northwind.example', uid }, admin)).body,
    ).toEqual({ verified: false });

    // The member's app finds the nomination; others see none.
    const nominations = await send<{ requests: { request_id: string; requested_by: string }[] }>(
      hub,
      '/api/v1/client/recovery/admin/requests/',
      {},
      hana,
    );
    expect(nominations.body.requests).toEqual([
      expect.objectContaining({ request_id: uid, requested_by: 'alex@northwind.example' }),
    ]);
    // Only the nominated member can approve it, from a device with a key.
    const other = await registerDevice(hub, 'ines@northwind.example', { publicKey: 'aW5lcw==' });
    expect((await send(hub, '/api/v1/client/recovery/admin/requests/', {}, other)).body).toEqual({ requests: [] });
    expect((await send(hub, '/api/v1/client/recovery/admin/requests/accept/', { request_id: uid }, other)).status).toBe(404);
    const keyless = await registerDevice(hub, 'hana@northwind.example');
    expect((await send(hub, '/api/v1/client/recovery/admin/requests/accept/', { request_id: uid }, keyless)).body).toMatchObject({
      code: 'user_key_missing',
    });
    expect((await send(hub, '/api/v1/client/recovery/admin/requests/accept/', { request_id: uid }, hana)).body).toEqual({
      state: 'active',
    });

    expect((await send(hub, '/recovery/fetch/admin/request/', { team_slug: TEAM }, admin)).body).toEqual({ requests: [] });
    expect((await admins({ state: 'active' })).body.results.map((a) => a.email)).toEqual(['hana@northwind.example']);
    expect(
      (await send(hub, '/group/member/secret/verify/', { team_slug: TEAM, email: 'hana@northwind.example', uid }, admin)).body,
    ).toEqual({ verified: true });
    // Revoking the device that holds the secret un-verifies it.
    await db.query("update devices set revoked_at = now() where email = 'hana@northwind.example' and public_key is not null");
    expect(
      (await send(hub, '/group/member/secret/verify/', { team_slug: TEAM, email: 'hana@northwind.example', uid }, admin)).body,
    ).toEqual({ verified: false });
  });

  it('pages (page 1, size 10), searches and fetches all; removes', async () => {
    for (let i = 0; i < 11; i++) {
      const email = `agent${String(i).padStart(2, '0')}@northwind.example`;
      await registerDevice(hub, email, { publicKey: 'a2V5' });
      await send(hub, '/recovery/create/admin/request/', { team_slug: TEAM, email, teamuser_id: email }, admin);
    }
    const first = await admins();
    expect(first.body.results).toHaveLength(10);
    expect(first.body).toMatchObject({ total: 12, pages: 2 });
    expect((await admins({ page: 2 })).body.results).toHaveLength(2);
    // Spec §7: /recovery/admins/fetch/?page&page_size — the paging in the query string.
    const byQuery = await send<Admins>(hub, '/recovery/admins/fetch/?page=3&page_size=5', { team_slug: TEAM }, admin);
    expect(byQuery.status).toBe(200);
    expect(byQuery.body.results).toHaveLength(2);
    expect(byQuery.body.pages).toBe(3);
    expect((await admins({ fetch_all_admins: true })).body.results).toHaveLength(12);
    expect((await admins({ search_email: 'agent07' })).body.results.map((a) => a.email)).toEqual(['agent07@northwind.example']);
    expect((await admins({ state: 'pending' })).body.total).toBe(11);
    const target = (await admins({ search_email: 'agent07' })).body.results[0];
    const removed = await send(hub, '/group/member/remove/', { team_slug: TEAM, email: target?.email, uid: target?.id }, admin);
    expect(removed).toEqual({ status: 200, body: { removed: true } });
    expect(
      (await send(hub, '/group/member/remove/', { team_slug: TEAM, email: target?.email, uid: target?.id }, admin)).status,
    ).toBe(404);
    expect((await admins()).body.total).toBe(11);
  });
});

describe('recovery settings', () => {
  it('defaults to 120-minute links and notifying the recovery admins', async () => {
    expect((await settings()).body).toEqual({
      link_expiration_period: 120,
      recovery_notification_recipient_type: 'recovery_admins',
      recovery_notification_recipient_emails: [],
    });
  });

  it('changes the link expiration period within 5 minutes and 7 days', async () => {
    const set = (n: unknown) =>
      send(hub, '/recovery/link/expiration/period/update/', { team_slug: TEAM, link_expiration_period: n }, admin);
    expect((await set(30)).body).toMatchObject({ link_expiration_period: 30 });
    expect((await set(4)).status).toBe(400);
    expect((await set(10081)).status).toBe(400);
    expect((await set('60')).status).toBe(400);
    // Approvals now use the new period.
    const kai = await registerDevice(hub, 'kai@northwind.example');
    await send(hub, '/api/v1/client/recovery/requests/create/', {}, kai);
    await send(
      hub,
      '/organization/recovery/admin/request/',
      { team_slug: TEAM, emails: ['kai@northwind.example'], state: 'approved' },
      admin,
    );
    const kaiRequest = (await requests({ search_value: 'kai@' })).body.results[0];
    const minutes = (Date.parse(kaiRequest?.link_expires_at as string) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
  });

  it('sets the notification recipients; custom needs emails', async () => {
    const set = (body: Record<string, unknown>) =>
      send(hub, '/recovery/notification/recipient/type/update/', { team_slug: TEAM, ...body }, admin);
    expect(
      (await set({ recovery_notification_recipient_type: 'custom', recovery_notification_recipient_emails: [] })).status,
    ).toBe(400);
    expect(
      (await set({ recovery_notification_recipient_type: 'custom', recovery_notification_recipient_emails: ['not-an-email'] }))
        .status,
    ).toBe(400);
    const custom = await set({
      recovery_notification_recipient_type: 'custom',
      recovery_notification_recipient_emails: ['Sec@northwind.example', 'sec@northwind.example', 'it@northwind.example'],
    });
    expect(custom.body).toEqual({
      link_expiration_period: 30,
      recovery_notification_recipient_type: 'custom',
      recovery_notification_recipient_emails: ['sec@northwind.example', 'it@northwind.example'],
    });
    const supers = await set({
      recovery_notification_recipient_type: 'super_admins',
      recovery_notification_recipient_emails: ['x@northwind.example'],
    });
    expect(supers.body).toMatchObject({
      recovery_notification_recipient_type: 'super_admins',
      recovery_notification_recipient_emails: [],
    });
  });
});

describe('access', () => {
  it('recovery requests: super admin and recovery agent; admin and integrator are refused', async () => {
    for (const scope of ['admin', 'integrator'] as const) {
      const headers = await consoleAuth(hub, [scope], `${scope}@northwind.example`);
      expect((await requests({}, headers)).status).toBe(403);
      expect(
        (
          await send(
            hub,
            '/organization/recovery/admin/request/',
            { team_slug: TEAM, emails: ['kai@northwind.example'], state: 'approved' },
            headers,
          )
        ).status,
      ).toBe(403);
      expect(
        (await send(hub, '/organization/recovery/admin/request/delete/', { team_slug: TEAM, id: crypto.randomUUID() }, headers))
          .status,
      ).toBe(403);
    }
    expect((await requests({}, agent)).status).toBe(200);
  });

  it('recovery admins and settings: super admin only; recovery agent, admin and integrator are refused', async () => {
    for (const scope of ['recovery_agent', 'admin', 'integrator'] as const) {
      const headers = await consoleAuth(hub, [scope], `${scope}@northwind.example`);
      expect((await admins({}, headers)).status).toBe(403);
      expect((await settings(headers)).status).toBe(403);
      const calls: [string, Record<string, unknown>][] = [
        ['/recovery/create/admin/request/', { email: 'kai@northwind.example', teamuser_id: 'kai' }],
        ['/recovery/fetch/admin/request/', {}],
        ['/group/member/remove/', { email: 'kai@northwind.example', uid: crypto.randomUUID() }],
        ['/user/key/verify/', { emails: ['kai@northwind.example'] }],
        ['/group/member/secret/verify/', { email: 'kai@northwind.example', uid: crypto.randomUUID() }],
        ['/recovery/link/expiration/period/update/', { link_expiration_period: 60 }],
        ['/recovery/notification/recipient/type/update/', { recovery_notification_recipient_type: 'super_admins' }],
      ];
      for (const [path, body] of calls)
        expect((await send(hub, path, { team_slug: TEAM, ...body }, headers)).status, `${scope} ${path}`).toBe(403);
    }
    expect((await settings()).body).toMatchObject({ link_expiration_period: 30 });
  });
});
