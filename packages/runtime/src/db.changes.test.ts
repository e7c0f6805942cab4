import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Db, wrapPool } from './db.ts';
import { createPostgresDb, createTestDb } from './testing/test-db.ts';

const dir = mkdtempSync(join(tmpdir(), 'latchkey-runtime-changes-'));
writeFileSync(join(dir, '0001_things.sql'), 'create table things (id int primary key);\ncreate table others (id int);\n');
const onPostgres = process.env.TEST_DB === 'postgres';
const CHANGES_THINGS = /\b(?:insert\s+into|update|delete\s+from)\s+things\b/i;

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe(`change notices (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let db: Db;
  beforeAll(async () => {
    db = await createTestDb(dir);
  }, 60_000);
  afterAll(() => db?.close());

  test('a committed write that matches calls the listener here at once; others and rolled-back ones do not', async () => {
    let heard = 0;
    const feed = db.watchChanges('test_things', CHANGES_THINGS, () => heard++);
    await until(() => feed.live);
    // Notices arrive a moment after the commit: wait before saying none came.
    const settled = async () => {
      await new Promise((r) => setTimeout(r, 200));
      return heard;
    };
    const count = await settled();
    await db.query('insert into things (id) values (1)');
    expect(heard).toBe(count + 1);
    await db.transaction(async (tx) => {
      await tx.query('update things set id = 2');
      // Not yet: the change is not visible to anyone before it commits.
      expect(heard).toBe(count + 1);
    });
    expect(heard).toBe(count + 2);
    await db.query('insert into others (id) values (1)');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('delete from things');
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    // Nor once more for its own notice: this process heard it at commit.
    expect(await settled()).toBe(count + 2);
    expect(() => db.watchChanges('no; drop table things', CHANGES_THINGS, () => undefined)).toThrow();
  });
});

// PostgreSQL only: embedded PGlite is one process's own database, with no other process to tell.
if (onPostgres)
  describe('change notices between processes (PostgreSQL)', () => {
    let writer: Db & { url: string };
    let reader: Db;
    beforeAll(async () => {
      writer = await createPostgresDb(dir);
      // Another instance: its own pool on the same database.
      reader = wrapPool(new pg.Pool({ connectionString: writer.url, max: 2 }));
    }, 60_000);
    afterAll(async () => {
      await reader?.close();
      await writer?.close();
    });

    test("another pool's listener hears a committed write within a moment (not a cache's lifetime), and nothing of a rolled-back one", async () => {
      let heard = 0;
      // Every instance runs the same code, so the writer watches the channel too: that is what
      // makes its writes announce it.
      writer.watchChanges('test_things', CHANGES_THINGS, () => undefined);
      const feed = reader.watchChanges('test_things', CHANGES_THINGS, () => heard++);
      await until(() => feed.live);
      const before = heard;
      await writer.transaction(async (tx) => {
        await tx.query('insert into things (id) values (10)');
      });
      // Sent in the transaction, so delivered right after the commit: within a moment, not a TTL.
      await until(() => heard === before + 1, 1000);
      await writer.query('update things set id = 11 where id = 10');
      await until(() => heard === before + 2, 1000);
      await expect(
        writer.transaction(async (tx) => {
          await tx.query('delete from things');
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      await writer.query('insert into others (id) values (2)');
      await new Promise((r) => setTimeout(r, 200));
      expect(heard).toBe(before + 2);
    });

    test('a lost listening connection makes the feed not live until it is back, and then the listener runs', async () => {
      let heard = 0;
      const feed = reader.watchChanges('test_things', CHANGES_THINGS, () => heard++);
      await until(() => feed.live);
      const before = heard;
      await writer.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'listen %'",
      );
      await until(() => !feed.live, 5000);
      await until(() => feed.live, 10_000);
      // Whatever was written while it was away was not heard: the listener was told to forget.
      expect(heard).toBeGreaterThan(before);
      const after = heard;
      await writer.query('insert into things (id) values (12)');
      await until(() => heard > after, 1000);
    });
  });
