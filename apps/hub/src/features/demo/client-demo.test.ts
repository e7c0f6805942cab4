import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAuth, send } from '../../testing/clients.ts';
import { createHubDb, type RunningHub, startHub, TEAM } from '../../testing/hub-fixture.ts';
import { seedClientDemo } from './client-demo.ts';

let db: Db;
let hub: RunningHub;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
  await seedClientDemo(hub.app, db, { teamSlug: TEAM });
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

describe('demo client data', () => {
  it('fills the audit, sharing and recovery screens through the ingestion API', async () => {
    const admin = await consoleAuth(hub);
    const audit = await send<{ total: number }>(hub, '/api/v1/audit/vault/summaries/', { team_slug: TEAM }, admin);
    expect(audit.body.total).toBe(26);
    const shares = await send<{ total: number }>(hub, '/api/v1/sharing/links/', { team_slug: TEAM }, admin);
    expect(shares.body.total).toBeGreaterThan(5);
    const requests = await send<{ total: number }>(
      hub,
      '/organization/recovery/admin/requests/fetch/',
      { team_slug: TEAM },
      admin,
    );
    expect(requests.body.total).toBe(2);
    const admins = await send<{ results: { email: string; state: string }[] }>(
      hub,
      '/recovery/admins/fetch/',
      { team_slug: TEAM },
      admin,
    );
    expect(admins.body.results).toEqual([expect.objectContaining({ email: 'rory@northwind.example', state: 'active' })]);
    // Devices hold only hashed credentials.
    const [row] = await db.query<{ n: number }>("select count(*)::int as n from devices where secret_hash !~ '^[0-9a-f]{64}$'");
    expect(row?.n).toBe(0);
  });
});
