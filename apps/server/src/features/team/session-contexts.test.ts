import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';
import { sessionContexts } from './session-contexts.ts';

let h: Harness;
let sessionId: string;
beforeAll(async () => {
  h = await startHarness();
  await h.signIn(DEMO_ADMINS.superAdmin);
  const [row] = await h.db.query<{ id: string }>('select id from sessions order by created_at desc limit 1');
  sessionId = row?.id as string;
});
afterAll(() => h?.close());
afterEach(() => void vi.useRealTimers());

/** Counts the context reads that reach the database. */
function counting() {
  let reads = 0;
  const query = h.db.query.bind(h.db);
  const db = Object.assign(Object.create(h.db), {
    query: (sql: string, params?: unknown[]) => {
      if (sql.includes('first_hub_services')) reads++;
      return query(sql, params);
    },
  });
  return { db, reads: () => reads };
}

test('a context is read once, then served from memory until it expires', async () => {
  const { db, reads } = counting();
  const find = sessionContexts(db, 60_000);
  const first = await find(sessionId);
  expect(first?.scopes).toEqual(['super_admin']);
  expect(await find(sessionId)).toEqual(first);
  expect(reads()).toBe(1);
  const short = sessionContexts(db, 0);
  await short(sessionId);
  await short(sessionId);
  expect(reads()).toBe(3);
});

test('a committed write to a table it reads forgets it, in a transaction or not', async () => {
  const { db, reads } = counting();
  const find = sessionContexts(db, 60_000);
  await find(sessionId);
  await h.db.query("update teams set name = name where slug = 'northwind'");
  await find(sessionId);
  expect(reads()).toBe(2);
  await h.db.transaction(async (tx) => {
    await tx.query('update team_admins set scopes = scopes where false');
    // Not committed yet: the remembered context still stands.
    await find(sessionId);
    expect(reads()).toBe(2);
  });
  await find(sessionId);
  expect(reads()).toBe(3);
  // Writes elsewhere keep it.
  await h.db.query('update members set name = name where false');
  await find(sessionId);
  expect(reads()).toBe(3);
});

test('a revocation is seen at once', async () => {
  const find = sessionContexts(h.db, 60_000);
  expect((await find(sessionId))?.revoked_at).toBeNull();
  await h.db.query('update sessions set revoked_at = now() where id = $1', [sessionId]);
  expect((await find(sessionId))?.revoked_at).toBeInstanceOf(Date);
});

test('a read that raced a write is not kept', async () => {
  const { db, reads } = counting();
  const slowDb = Object.assign(Object.create(db), {
    query: async (sql: string, params?: unknown[]) => {
      const rows = await db.query(sql, params);
      // The write commits while the context read is on its way back.
      if (sql.includes('first_hub_services')) await h.db.query('update hubs set services = services where false');
      return rows;
    },
  });
  const find = sessionContexts(slowDb, 60_000);
  await find(sessionId);
  await find(sessionId);
  expect(reads()).toBe(2);
});

test('parallel calls that find no context share one read', async () => {
  const { db, reads } = counting();
  const find = sessionContexts(db, 60_000);
  const found = await Promise.all(Array.from({ length: 8 }, () => find(sessionId)));
  expect(new Set(found.map((f) => f?.session_id))).toEqual(new Set([sessionId]));
  expect(reads()).toBe(1);
});

test('a context past half its time is served at once and read afresh behind the call', async () => {
  const { db, reads } = counting();
  vi.useFakeTimers({ toFake: ['Date'] });
  const find = sessionContexts(db, 10_000);
  await find(sessionId);
  vi.setSystemTime(Date.now() + 4_000);
  await find(sessionId);
  expect(reads()).toBe(1);
  vi.setSystemTime(Date.now() + 2_000);
  const first = await find(sessionId);
  expect(first?.session_id).toBe(sessionId);
  await vi.waitFor(() => expect(reads()).toBe(2));
  // Past the first read's time, within the second's: no call waits for a read.
  vi.setSystemTime(Date.now() + 5_000);
  await find(sessionId);
  await find(sessionId);
  expect(reads()).toBe(2);
});

test('a call after a write does not share a read begun before it', async () => {
  await h.db.query('update sessions set revoked_at = null where id = $1', [sessionId]);
  const { db, reads } = counting();
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let held = true;
  const slowDb = Object.assign(Object.create(db), {
    query: async (sql: string, params?: unknown[]) => {
      const rows = await db.query(sql, params);
      if (held && sql.includes('first_hub_services')) await gate;
      return rows;
    },
  });
  const find = sessionContexts(slowDb, 60_000);
  const before = find(sessionId);
  await vi.waitFor(() => expect(reads()).toBe(1));
  await h.db.query('update sessions set revoked_at = now() where id = $1', [sessionId]);
  held = false;
  const after = await find(sessionId);
  expect(after?.revoked_at).toBeInstanceOf(Date);
  release();
  expect((await before)?.revoked_at).toBeNull();
  expect(reads()).toBe(2);
});
