import type { HubTokens } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHubDb, type RunningHub, signGrant, startHub, TEAM } from '../../testing/hub-fixture.ts';

let db: Db;
let hub: RunningHub;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

const AUDIT = '/api/v1/audit/vault/summaries/'; // super admin only
const call = (path: string, access: string) => hub.post(path, { team_slug: TEAM }, { authorization: `Bearer ${access}` });

describe('a time-bound scope (just-in-time elevation) on the Hub', () => {
  it('works until the expiry the server signed, then is refused under the same access token', async () => {
    const until = Date.now() + 60_000;
    const grant = await signGrant({ scopes: ['admin', 'super_admin'], scopeExpiry: { super_admin: until } });
    const res = await hub.post('/auth/token/', { team_slug: TEAM }, { authorization: `Bearer ${grant}` });
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as HubTokens;
    // The access token outlives the elevation: a refusal below is the scope's expiry, not the token's.
    expect(tokens.expires_at).toBeGreaterThan(until + 1_000);
    expect((await call(AUDIT, tokens.access)).status).toBe(200);

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(until - 1);
      expect((await call(AUDIT, tokens.access)).status).toBe(200);
      vi.setSystemTime(until);
      const refused = await call(AUDIT, tokens.access);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'forbidden' });
      // The standing scope stays: the session is alive, without the time-bound one.
      const me = await call('/api/v1/session/', tokens.access);
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ scopes: ['admin'] });
    } finally {
      vi.useRealTimers();
    }
    // The session row still lists the scope: the Hub's own clock refused it.
    const [row] = await db.query<{ scopes: string[] }>('select scopes from hub_sessions where scope_expiry ? $1', [
      'super_admin',
    ]);
    expect(row?.scopes).toContain('super_admin');
  });

  it("a grant without expiries (an older server's) keeps every scope standing", async () => {
    const grant = await signGrant({ scopes: ['super_admin'] });
    const tokens = (await (
      await hub.post('/auth/token/', { team_slug: TEAM }, { authorization: `Bearer ${grant}` })
    ).json()) as HubTokens;
    expect((await call(AUDIT, tokens.access)).status).toBe(200);
  });

  it('refuses a grant whose expiry names something other than a scope', async () => {
    const grant = await signGrant({ scopes: ['admin'], scopeExpiry: { owner: Date.now() + 60_000 } as never });
    const res = await hub.post('/auth/token/', { team_slug: TEAM }, { authorization: `Bearer ${grant}` });
    expect(res.status).toBe(401);
  });
});
