import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databaseInputError } from './database-errors.ts';
import type { Db } from './db.ts';
import { createHttpApp } from './http.ts';
import { createTestDb } from './testing/test-db.ts';

const dir = mkdtempSync(join(tmpdir(), 'latchkey-runtime-data-errors-'));
writeFileSync(
  join(dir, '0001_things.sql'),
  `create table kinds (name text primary key);
create table things (
  id serial primary key,
  kind text references kinds (name),
  size smallint not null check (size >= 0),
  at timestamptz,
  label text unique
);
create index things_label on things (label);
`,
);

let db: Db;
let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  db = await createTestDb(dir);
  await db.query(`insert into kinds (name) values ('box')`);
  app = createHttpApp({ logLevel: 'silent', checkReplies: false });
  // A route that hands the caller's values to the database unchecked, as a careless handler would.
  app.post('/things', async (request) => {
    const b = request.body as Record<string, unknown>;
    await db.query('insert into things (kind, size, at, label) values ($1, $2, $3, $4)', [b.kind, b.size, b.at, b.label]);
    return { ok: true };
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await db?.close();
});

const post = async (body: unknown) => {
  const res = await fetch(`${url}/things`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('the database refusing a value is the caller’s 400, never a 500', () => {
  test.each([
    ['a number that is not one (22P02)', { kind: 'box', size: 'twelve' }],
    ['a number out of range (22003)', { kind: 'box', size: 1e9 }],
    ['a date that is not one (22007/22008)', { kind: 'box', size: 1, at: '2026-13-45T99:00:00Z' }],
    ['a missing required value (23502)', { kind: 'box', size: null }],
    ['a reference to nothing (23503)', { kind: 'crate', size: 1 }],
    ['a failed check (23514)', { kind: 'box', size: -1 }],
    ['an index entry too large (54000)', { kind: 'box', size: 1, label: 'x'.repeat(300_000) }],
  ])('%s', async (_name, body) => {
    const res = await post(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe('invalid_input');
    // The database's own words (table and constraint names) stay in the log.
    expect(JSON.stringify(res.body)).not.toMatch(/things|kinds|constraint|violates/);
  });

  test('a duplicate is 409 conflict', async () => {
    expect((await post({ kind: 'box', size: 1, label: 'twice' })).status).toBe(200);
    const res = await post({ kind: 'box', size: 1, label: 'twice' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', message_key: 'errors.already_exists' });
  });

  test('a NUL byte reaching the database is mapped too (22021 / 22P05), though the input check stops it first', async () => {
    const error = await db.query('select $1::text', ['a\u0000b']).catch((e: unknown) => e);
    expect(databaseInputError(error)?.status).toBe(400);
  });

  test('a failure that is not about the input stays a 500', async () => {
    const error = await db.query('select * from no_such_table').catch((e: unknown) => e);
    expect(databaseInputError(error)).toBeNull();
  });
});
