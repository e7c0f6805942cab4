import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T = Row>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** The one query layer: the same SQL runs on embedded PGlite and on a PostgreSQL server. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs several statements (migrations, the job queue's schema); no parameters. Returns the last statement's rows. */
  exec<T = Row>(sql: string): Promise<T[]>;
  /** Runs `fn` in one transaction: all its writes land, or none do. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `listener` with the SQL of each statement once it has taken effect: at once for a
   * single statement, at commit for those of a transaction. Lets a cache drop what a write changed.
   */
  onCommitted(listener: (sql: string) => void): void;
  /** Connections of a PostgreSQL pool (for /metrics); absent on embedded PGlite, which has one. */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** The onCommitted listeners of one Db. */
function committedListeners() {
  const listeners: ((sql: string) => void)[] = [];
  return {
    add: (listener: (sql: string) => void) => void listeners.push(listener),
    emit(statements: string[]) {
      for (const sql of statements) for (const listener of listeners) listener(sql);
    },
  };
}

/** Extensions the embedded database loads, so migrations run unchanged on PGlite and PostgreSQL (trigram search). */
export const PGLITE_EXTENSIONS = { pg_trgm };

export function wrapPglite(lite: PGlite): Db {
  const committed = committedListeners();
  return {
    kind: 'pglite',
    async query<T>(sql: string, params?: unknown[]) {
      const rows = (await lite.query<T>(sql, params)).rows;
      committed.emit([sql]);
      return rows;
    },
    async exec<T>(sql: string) {
      const results = await lite.exec(sql);
      committed.emit([sql]);
      return (results.at(-1)?.rows ?? []) as T[];
    },
    async transaction(fn) {
      const statements: string[] = [];
      const result = await lite.transaction((tx) =>
        fn({
          query: async <T>(s: string, p?: unknown[]) => {
            statements.push(s);
            return (await tx.query<T>(s, p)).rows;
          },
        }),
      );
      committed.emit(statements);
      return result;
    },
    onCommitted: committed.add,
    close: () => lite.close(),
  };
}

export function wrapPool(pool: pg.Pool): Db {
  const committed = committedListeners();
  return {
    kind: 'postgres',
    async query<T>(sql: string, params?: unknown[]) {
      const rows = (await pool.query(sql, params)).rows as T[];
      committed.emit([sql]);
      return rows;
    },
    async exec<T>(sql: string) {
      // Several statements answer with one result each, a single statement with one result.
      const results: pg.QueryResult | pg.QueryResult[] = await pool.query(sql);
      committed.emit([sql]);
      return ((Array.isArray(results) ? results.at(-1) : results)?.rows ?? []) as T[];
    },
    async transaction(fn) {
      const client = await pool.connect();
      const statements: string[] = [];
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async <T>(s: string, p?: unknown[]) => {
            statements.push(s);
            return (await client.query(s, p)).rows as T[];
          },
        });
        await client.query('COMMIT');
        committed.emit(statements);
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    onCommitted: committed.add,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}

/** A PostgreSQL server when `url` is given, otherwise embedded PGlite stored in `dataDir`. */
export async function openDb(options: { url?: string | undefined; dataDir: string }): Promise<Db> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle client losing its connection (server restart, failover) must not crash the process;
    // the pool drops it and the next query opens a new one.
    pool.on('error', () => undefined);
    await pool.query('select 1');
    return wrapPool(pool);
  }
  mkdirSync(options.dataDir, { recursive: true });
  // One process at a time (data-dir-lock.ts): a second one is refused, never given a diverging copy.
  const release = lockDataDir(options.dataDir);
  try {
    const db = wrapPglite(await PGlite.create({ dataDir: options.dataDir, extensions: PGLITE_EXTENSIONS }));
    return {
      ...db,
      close: async () => {
        await db.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
