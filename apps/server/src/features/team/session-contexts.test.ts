import { afterAll, beforeAll, expect, test } from 'vitest';
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
