import { generateKeyPairSync } from 'node:crypto';
import type { Db } from '@latchkey/runtime';
import { hashToken } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAuth, registerDevice, send } from '../../testing/clients.ts';
import { CREDENTIAL, createHubDb, type RunningHub, SERVER_KEY, startHub, TEAM } from '../../testing/hub-fixture.ts';
import { signEnrolmentGrant } from '../devices/index.ts';

let db: Db;
let hub: RunningHub;
let admin: Record<string, string>;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
  admin = await consoleAuth(hub);
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

const report = (device: Record<string, string>, s: Partial<Record<string, number>> = {}) =>
  send(
    hub,
    '/api/v1/client/vault/summary/',
    { total_items: 50, weak: 2, reused: 1, old: 3, compromised: 0, score: 80, ...s },
    device,
  );
const list = (body: Record<string, unknown> = {}, headers = admin) =>
  send<{
    results: { email: string; score: number; summary_id: string }[];
    total: number;
    pages: number;
    totals: Record<string, number>;
  }>(hub, '/api/v1/audit/vault/summaries/', { team_slug: TEAM, ...body }, headers);

describe('device registration', () => {
  it('returns a credential once and keeps only its hash', async () => {
    const grant = signEnrolmentGrant({
      credentialId: CREDENTIAL,
      key: SERVER_KEY,
      teamSlug: TEAM,
      email: 'Ava@Northwind.example',
    });
    const res = await send<{ device_id: string; device_secret: string; email: string }>(
      hub,
      '/api/v1/client/devices/register/',
      { team_slug: TEAM, name: 'Phone' },
      { authorization: `Bearer ${grant}` },
    );
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('ava@northwind.example');
    const [row] = await db.query<{ secret_hash: string }>('select secret_hash from devices where id = $1', [res.body.device_id]);
    expect(row?.secret_hash).toBe(hashToken(res.body.device_secret));
    expect(JSON.stringify(await db.query('select * from devices'))).not.toContain(res.body.device_secret);
  });

  it('refuses a grant signed with another secret, for another team, or none', async () => {
    const forged = signEnrolmentGrant({
      credentialId: CREDENTIAL,
      key: generateKeyPairSync('ed25519').privateKey,
      teamSlug: TEAM,
      email: 'x@y.example',
    });
    const body = { team_slug: TEAM, name: 'Phone' };
    expect((await send(hub, '/api/v1/client/devices/register/', body, { authorization: `Bearer ${forged}` })).status).toBe(401);
    expect((await send(hub, '/api/v1/client/devices/register/', body, {})).status).toBe(401);
    // A console aux grant is not an enrolment grant.
    const consoleToken = admin.authorization as string;
    expect((await send(hub, '/api/v1/client/devices/register/', body, { authorization: consoleToken })).status).toBe(401);
    const grant = signEnrolmentGrant({ credentialId: CREDENTIAL, key: SERVER_KEY, teamSlug: TEAM, email: 'x@y.example' });
    const other = await send(
      hub,
      '/api/v1/client/devices/register/',
      { ...body, team_slug: 'contoso' },
      { authorization: `Bearer ${grant}` },
    );
    expect(other.status).toBe(403);
  });

  it('refuses ingestion without a valid device credential, and console tokens', async () => {
    const device = await registerDevice(hub, 'ben@northwind.example');
    const [id] = (device.authorization as string).slice(7).split('.');
    expect((await report({ authorization: `Bearer ${id}.wrong-secret` })).status).toBe(401);
    expect((await report({})).status).toBe(401);
    expect((await report(admin)).status).toBe(401);
    await db.query("update devices set revoked_at = now() where email = 'ben@northwind.example'");
    expect((await report(device)).status).toBe(401);
  });

  it("shuts a team's devices out when its registration is removed", async () => {
    const device = await registerDevice(hub, 'pia@northwind.example');
    expect((await report(device)).status).toBe(200);
    const [reg] = await db.query<{ id: string }>('select id from registrations where team_slug = $1', [TEAM]);
    await db.query("update registrations set team_slug = 'gone' where id = $1", [reg?.id]);
    try {
      expect((await report(device)).status).toBe(401);
    } finally {
      await db.query('update registrations set team_slug = $1 where id = $2', [TEAM, reg?.id]);
    }
    await db.query('delete from vault_summaries where email = $1', ['pia@northwind.example']);
  });
});

describe('vault health ingestion', () => {
  it('accepts counts and a score, never anything else', async () => {
    const device = await registerDevice(hub, 'chloe@northwind.example');
    expect((await report(device, { score: 101 })).status).toBe(400);
    expect((await report(device, { weak: 60 })).status).toBe(400);
    const secret = await send(
      hub,
      '/api/v1/client/vault/summary/',
      { total_items: 5, weak: 0, reused: 0, old: 0, compromised: 0, score: 90, password: 'hunter2' },
      device,
    );
    expect(secret.status).toBe(400);
    const ok = await report(device);
    expect(ok.status).toBe(200);
    // A newer report replaces the member's summary.
    const again = await report(device, { score: 42 });
    expect(again.body.summary_id).toBe(ok.body.summary_id);
  });

  it('stores events from the apps', async () => {
    const device = await registerDevice(hub, 'dev@northwind.example');
    const res = await send(
      hub,
      '/api/v1/client/events/',
      {
        events: [
          { type: 'vault_unlocked', occurred_at: new Date().toISOString() },
          { type: 'item_shared', occurred_at: new Date().toISOString(), detail: { count: 1 } },
        ],
      },
      device,
    );
    expect(res).toEqual({ status: 200, body: { accepted: 2 } });
    expect(
      (await send(hub, '/api/v1/client/events/', { events: [{ type: 'read_secret', occurred_at: 'now' }] }, device)).status,
    ).toBe(400);
  });
});

describe('security audit', () => {
  beforeAll(async () => {
    for (const [i, name] of ['elif', 'farah', 'gus', 'hana', 'ines', 'jon', 'kai', 'lena', 'mateo', 'nia', 'omar'].entries()) {
      await report(await registerDevice(hub, `${name}@northwind.example`), { score: 30 + i * 5, weak: i });
    }
  });

  it('pages by 10 and sorts by the chosen field', async () => {
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.body.results).toHaveLength(10);
    expect(first.body.total).toBe(12);
    expect(first.body.pages).toBe(2);
    const scores = first.body.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    const desc = await list({ ordering: { field_id: 'email', desc: true }, page: 2 });
    // Twelve members (Ben's device was revoked before it reported): page 2 holds the last two.
    expect(desc.body.results.map((r) => r.email)).toEqual(['elif@northwind.example', 'chloe@northwind.example']);
    expect((await list({ ordering: { field_id: 'password', desc: true } })).status).toBe(400);
  });

  it('searches by email and gives team totals', async () => {
    const found = await list({ search_value: 'KAI' });
    expect(found.body.results.map((r) => r.email)).toEqual(['kai@northwind.example']);
    expect(found.body.totals.members).toBe(12);
    expect(found.body.totals.average_score).toEqual(expect.any(Number));
    expect((await list({ search_value: '%' })).body.total).toBe(0);
  });

  it("shows one member's summary with their devices", async () => {
    const kai = (await list({ search_value: 'kai' })).body.results[0];
    const res = await send<{ summary: { email: string }; devices: { name: string }[] }>(
      hub,
      '/api/v1/audit/vault/summary/',
      { team_slug: TEAM, summary_id: kai?.summary_id },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.summary.email).toBe('kai@northwind.example');
    expect(res.body.devices.map((d) => d.name)).toEqual(['Laptop']);
    const missing = await send(hub, '/api/v1/audit/vault/summary/', { team_slug: TEAM, summary_id: crypto.randomUUID() }, admin);
    expect(missing.status).toBe(404);
  });

  it('is for the super admin only: admin, integrator and recovery agent are refused', async () => {
    for (const scope of ['admin', 'integrator', 'recovery_agent'] as const) {
      const headers = await consoleAuth(hub, [scope], `${scope}@northwind.example`);
      expect((await list({}, headers)).status).toBe(403);
      const one = await send(hub, '/api/v1/audit/vault/summary/', { team_slug: TEAM, summary_id: crypto.randomUUID() }, headers);
      expect(one.status).toBe(403);
    }
  });

  it("is bound to the token's team", async () => {
    expect((await list({ team_slug: 'contoso' })).status).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents the ingestion API and the audit calls, with their authentication', async () => {
    const doc = (await (await fetch(`${hub.url}/openapi.json`)).json()) as {
      paths: Record<string, { post: { security: unknown[] } }>;
    };
    expect(doc.paths['/api/v1/client/devices/register/']?.post.security).toEqual([]);
    for (const path of [
      '/api/v1/client/vault/summary/',
      '/api/v1/client/shares/create/',
      '/api/v1/client/recovery/requests/create/',
      '/api/v1/client/events/',
      '/api/v1/audit/vault/summaries/',
    ]) {
      expect(doc.paths[path]?.post.security, path).toEqual([{ bearer: [] }]);
    }
  });
});

describe('audit totals at scale', () => {
  /** The totals as a fresh sum of every summary: what `vault_totals` must always equal. */
  const recomputed = async () =>
    (
      await db.query<Record<string, number | null>>(
        `select count(*)::int as members, round(avg(score))::int as average_score,
           coalesce(sum(weak), 0)::int as weak, coalesce(sum(reused), 0)::int as reused,
           coalesce(sum(old), 0)::int as old, coalesce(sum(compromised), 0)::int as compromised
         from vault_summaries where team_slug = $1`,
        [TEAM],
      )
    )[0];

  it('are kept by the database through reports, re-reports, bulk changes and removals', async () => {
    const device = await registerDevice(hub, 'totals@northwind.example');
    expect((await report(device, { score: 41, weak: 5 })).status).toBe(200);
    expect((await list()).body.totals).toEqual(await recomputed());
    // A re-report replaces the member's numbers (insert … on conflict do update).
    expect((await report(device, { score: 97, weak: 0 })).status).toBe(200);
    expect((await list()).body.totals).toEqual(await recomputed());
    await db.query(
      `insert into vault_summaries (team_slug, email, total_items, weak, reused, old, compromised, score)
       select $1, 'bulk.' || g || '@northwind.example', 10, g % 3, g % 2, 1, 0, g % 100 from generate_series(1, 300) g`,
      [TEAM],
    );
    await db.query(`update vault_summaries set score = 100 - score where email like 'bulk.%'`);
    expect((await list()).body.totals).toEqual(await recomputed());
    await db.query(`delete from vault_summaries where email like 'bulk.%' or email = 'totals@northwind.example'`);
    const after = await list();
    expect(after.body.totals).toEqual(await recomputed());
    // Without a search, the page count is the team's count.
    expect(after.body.total).toBe(after.body.totals.members);
  });

  it('a search counts only its matches; a deep page reads the right rows', async () => {
    await db.query(
      `insert into vault_summaries (team_slug, email, total_items, weak, reused, old, compromised, score)
       select $1, 'deep.' || lpad(g::text, 3, '0') || '@northwind.example', 10, 0, 0, 0, 0, 50 from generate_series(1, 120) g`,
      [TEAM],
    );
    try {
      const found = await list({ search_value: 'DEEP.1', page_size: 100 });
      expect(found.body.total).toBe(21); // deep.100 … deep.120, and deep.001's neighbours do not match
      expect(found.body.results.every((r) => r.email.startsWith('deep.1'))).toBe(true);
      const all = (await list({ page_size: 100 })).body;
      const everyone = (
        await db.query<{ email: string }>('select email from vault_summaries where team_slug = $1 order by score, email', [TEAM])
      ).map((r) => r.email);
      const last = await list({ page_size: 10, page: all.pages * 10 });
      expect(last.body.results.map((r) => r.email)).toEqual(everyone.slice((all.pages * 10 - 1) * 10));
    } finally {
      await db.query(`delete from vault_summaries where email like 'deep.%'`);
    }
  });
});
