import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db.ts';

/** Forward-only SQL migrations `NNNN_name.sql`, each applied once, in order; one run's are applied in one transaction. */
export function readMigrations(dir: string): { name: string; sql: string }[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name), 'utf8') }));
}

export async function migrate(db: Db, dir: string): Promise<string[]> {
  const applied: string[] = [];
  // One instance migrates at a time when several start together on one PostgreSQL server. The
  // bookkeeping table is created under the lock too: two concurrent `create table if not exists`
  // on an empty database collide (duplicate key in pg_type), and the second instance would fail.
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(7341001)');
    await tx.query(
      'create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())',
    );
    const done = new Set((await tx.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name));
    for (const m of readMigrations(dir)) {
      if (done.has(m.name)) continue;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('insert into schema_migrations (name) values ($1)', [m.name]);
      applied.push(m.name);
    }
  });
  return applied;
}

/**
 * Splits a migration on semicolons that end a line, outside `$$`-quoted function bodies (whose own
 * statements end lines too). Comment lines are dropped.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let inBody = false;
  for (const line of sql.split('\n')) {
    if (!inBody && /^\s*--/.test(line)) continue;
    current.push(line);
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.join('\n').replace(/;\s*$/, ''));
      current = [];
    }
  }
  statements.push(current.join('\n'));
  return statements.map((s) => s.trim()).filter(Boolean);
}
