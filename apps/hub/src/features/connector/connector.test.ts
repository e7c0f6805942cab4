import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubDb, type RunningHub, startHub, TEAM } from '../../testing/hub-fixture.ts';
import { servicesFor } from './capabilities.ts';

let db: Db;
let hub: RunningHub;
let oldHub: RunningHub;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
  oldHub = await startHub(db, { HUB_VERSION: '1.0' });
});
afterAll(async () => {
  await hub.app.close();
  await oldHub.app.close();
  await db.close();
});

describe('connector', () => {
  it('says a registered team is registered, with the version and services', async () => {
    const res = await hub.post('/api/v1/integrate/connector/', { team_slug: TEAM });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      registered: true,
      version: '2.2.0',
      services: ['integration', 'audit', 'audit_logs', 'recovery', 'secret_sharing'],
    });
  });

  it('says another team is not registered', async () => {
    const res = await hub.post('/api/v1/integrate/connector/', { team_slug: 'contoso' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ registered: false, version: '2.2.0' });
  });

  it('offers only what an older Hub runs', async () => {
    const body = await (await oldHub.post('/api/v1/integrate/connector/', { team_slug: TEAM })).json();
    expect(body).toEqual({ registered: true, version: '1.0', services: ['integration', 'audit_logs', 'recovery'] });
  });

  it('refuses a call without a team', async () => {
    const res = await hub.post('/api/v1/integrate/connector/', {});
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'invalid_input' });
  });
});

describe('servicesFor', () => {
  it('unlocks audit and sharing at 2.1, comparing versions by number', () => {
    expect(servicesFor('2.0.9')).not.toContain('audit');
    expect(servicesFor('2.1')).toContain('audit');
    expect(servicesFor('2.10')).toContain('secret_sharing');
  });
});
