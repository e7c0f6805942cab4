import type { HubTokens } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { createTestDb } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';
import { type RunningHub, SERVER_JWK, signGrant, startHub } from '../../testing/hub-fixture.ts';
import { seedDemoRegistration } from './demo-seed.ts';

const demo = {
  teamSlug: 'northwind',
  credentialId: 'demo-hub',
  serverKey: JSON.stringify(SERVER_JWK),
  serverUrl: 'http://127.0.0.1:8080',
};
let db: Db;
let hub: RunningHub;

beforeAll(async () => {
  db = await createTestDb(MIGRATIONS_DIR);
  hub = await startHub(db);
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

describe('demo registration', () => {
  it('registers the demo team on an empty Hub, once', async () => {
    expect(await (await hub.post('/api/v1/integrate/connector/', { team_slug: 'northwind' })).json()).toMatchObject({
      registered: false,
    });
    expect(await seedDemoRegistration(db, demo)).toBe(true);
    expect(await seedDemoRegistration(db, { ...demo, credentialId: 'another' })).toBe(false);
    expect(await (await hub.post('/api/v1/integrate/connector/', { team_slug: 'northwind' })).json()).toMatchObject({
      registered: true,
    });
  });

  it("accepts grants signed with the demo server's key", async () => {
    const grant = await signGrant({ kid: 'demo-hub' });
    const res = await hub.post('/auth/token/', { team_slug: 'northwind' }, { authorization: `Bearer ${grant}` });
    expect(res.status).toBe(200);
    expect(((await res.json()) as HubTokens).hub_version).toBe('2.2.0');
  });
});
