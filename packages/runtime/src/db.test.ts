import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from './db.ts';
import { migrate, splitStatements } from './migrate.ts';
import { createTestDb } from './testing/test-db.ts';

const dir = mkdtempSync(join(tmpdir(), 'latchkey-runtime-migrations-'));
writeFileSync(
  join(dir, '0001_notes.sql'),
  `-- A table for the tests; the trailing semicolons split statements.
create table notes (
  id serial primary key,
  body text not null unique
);
create index notes_body on notes (body);
`,
);
writeFileSync(join(dir, '0002_tags.sql'), 'create table tags (name text primary key);\n');
writeFileSync(join(dir, 'README.md'), 'not a migration');

let db: Db;
// A fresh embedded database takes a few seconds on a busy machine.
beforeAll(async () => {
  db = await createTestDb(dir);
}, 60_000);
afterAll(() => db?.close());

const notes = async () => (await db.query<{ body: string }>('select body from notes order by id')).map((r) => r.body);

describe(`database (${process.env.TEST_DB === 'postgres' ? 'PostgreSQL' : 'PGlite'})`, () => {
  test('query takes parameters and returns rows', async () => {
    const rows = await db.query<{ n: number; s: string }>('select $1::int + 1 as n, $2::text as s', [41, 'x']);
    expect(rows).toEqual([{ n: 42, s: 'x' }]);
  });

  test('a transaction that completes writes everything', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query('insert into notes (body) values ($1)', ['one']);
      await tx.query('insert into notes (body) values ($1)', ['two']);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await notes()).toEqual(['one', 'two']);
  });

  test('a transaction that throws writes nothing, and the error reaches the caller', async () => {
    const failure = new Error('boom');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into notes (body) values ($1)', ['three']);
        await tx.query('update notes set body = body || $1', ['!']);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await notes()).toEqual(['one', 'two']);
  });

  test('a failing statement rolls back the statements before it', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into notes (body) values ($1)', ['four']);
        await tx.query('insert into notes (body) values ($1)', ['one']);
      }),
    ).rejects.toThrow(/unique|duplicate/i);
    expect(await notes()).toEqual(['one', 'two']);
  });

  test('the database is usable after a rolled-back transaction', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into notes (body) values ($1)', ['five']);
    });
    expect(await notes()).toEqual(['one', 'two', 'five']);
  });

  test('a prepared statement answers each run with its own parameters, planned once per connection', async () => {
    const sql = 'select $1::int * 2 as n';
    const listed = await db.transaction(async (tx) => {
      for (const n of [1, 2, 3]) expect(await tx.query(sql, [n], { prepare: true })).toEqual([{ n: n * 2 }]);
      return tx.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements where statement = $1', [sql]);
    });
    // PostgreSQL keeps one named statement on the connection; embedded PGlite ignores the option.
    expect(listed).toEqual([{ n: db.kind === 'postgres' ? 1 : 0 }]);
    expect(await db.query(sql, [21], { prepare: true })).toEqual([{ n: 42 }]);
  });

  test('a query outside a transaction is not part of it', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inside = db.transaction(async (tx) => {
      await tx.query('insert into notes (body) values ($1)', ['six']);
      await gate;
      throw new Error('rolled back');
    });
    const outside = db.query('insert into notes (body) values ($1)', ['seven']);
    release();
    await expect(inside).rejects.toThrow('rolled back');
    await outside;
    expect(await notes()).toEqual(['one', 'two', 'five', 'seven']);
  });
});

describe('migrate', () => {
  test('is idempotent: a second run applies nothing and keeps the data', async () => {
    expect(await migrate(db, dir)).toEqual([]);
    expect(await migrate(db, dir)).toEqual([]);
    const applied = await db.query<{ name: string }>('select name from schema_migrations order by name');
    expect(applied.map((r) => r.name)).toEqual(['0001_notes.sql', '0002_tags.sql']);
    expect(await notes()).toEqual(['one', 'two', 'five', 'seven']);
  });

  test('applies only new migrations, in order', async () => {
    writeFileSync(join(dir, '0003_note_tags.sql'), 'alter table notes add column tag text references tags (name);\n');
    expect(await migrate(db, dir)).toEqual(['0003_note_tags.sql']);
    expect(await migrate(db, dir)).toEqual([]);
    await db.query("insert into tags (name) values ('a')");
    await db.query("update notes set tag = 'a' where body = 'one'");
  });

  test('a failing migration is not recorded and leaves no part behind', async () => {
    writeFileSync(join(dir, '0004_broken.sql'), 'create table broken (id int);\nselect * from no_such_table;\n');
    await expect(migrate(db, dir)).rejects.toThrow(/no_such_table/);
    const applied = await db.query<{ name: string }>('select name from schema_migrations order by name');
    expect(applied.map((r) => r.name)).not.toContain('0004_broken.sql');
    const [table] = await db.query<{ t: string | null }>("select to_regclass('broken')::text as t");
    expect(table?.t).toBeNull();
  });

  test('splits on line-ending semicolons, keeping a function body whole', () => {
    const sql = [
      '-- a comment',
      'create table a (id int);',
      'create function f() returns trigger language plpgsql as $$',
      'begin',
      '  insert into a values (1);',
      '  return null;',
      'end $$;',
      "select 'last'",
    ].join('\n');
    expect(splitStatements(sql)).toEqual([
      'create table a (id int)',
      'create function f() returns trigger language plpgsql as $$\nbegin\n  insert into a values (1);\n  return null;\nend $$',
      "select 'last'",
    ]);
  });
});

describe('createTestDb', () => {
  test('migrations that fail give no database and leave no template behind', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'latchkey-runtime-broken-'));
    writeFileSync(join(broken, '0001_ok.sql'), 'create table fine (id int);\n');
    writeFileSync(join(broken, '0002_broken.sql'), `select * from no_such_table_${Date.now()};\n`);
    const databases = () =>
      db.kind === 'postgres'
        ? db.query<{ datname: string }>("select datname from pg_database where datname like 'latchkey_tpl_%' order by 1")
        : Promise.resolve([]);
    const before = await databases();
    await expect(createTestDb(broken)).rejects.toThrow(/no_such_table/);
    expect(await databases()).toEqual(before);
  });
});
