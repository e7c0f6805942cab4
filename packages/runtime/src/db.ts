import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import { tracedQuery } from './tracing.ts';

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T = Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
}

export interface QueryOptions {
  /**
   * Planned once per connection and kept (a named prepared statement on PostgreSQL), for a hot
   * statement whose planning costs a good part of its run. Only for SQL from a bounded set of
   * texts (each text is one statement per connection), with explicit columns, whose plan suits
   * every parameter: PostgreSQL may settle on one generic plan after five runs. Embedded PGlite
   * ignores it.
   */
  prepare?: boolean;
}

/** The one query layer: the same SQL runs on embedded PGlite and on a PostgreSQL server. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs several statements (migrations, the job queue's schema); no parameters. Returns the last statement's rows. */
  exec<T = Row>(sql: string): Promise<T[]>;
  /** As `exec`, answering every statement's rows in order (the job queue reads a row from the middle). */
  execAll<T = Row>(sql: string): Promise<T[]>;
  /** Runs `fn` in one transaction: all its writes land, or none do. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `listener` with the SQL of each statement once it has taken effect: at once for a
   * single statement, at commit for those of a transaction. Lets a cache drop what a write changed.
   */
  onCommitted(listener: (sql: string) => void): void;
  /**
   * Tells every process on this database that a write matching `pattern` took effect: `listener`
   * runs here at commit (as `onCommitted`) and in every other process watching `channel`. On
   * PostgreSQL the notice is a NOTIFY sent inside the writing transaction (a single statement's
   * right after it, before the caller gets its result), so another instance hears of a change
   * milliseconds after it is visible and before the writer answers. `live` is false while notices
   * from other processes may be missed (the listening connection is down, or not yet up): a cache
   * must not answer from memory then. Embedded PGlite has one process: always live. A process
   * announces the channel's changes once it watches it, so every instance that writes those tables
   * must watch too (each runs the same code).
   */
  watchChanges(channel: string, pattern: RegExp, listener: () => void): ChangeFeed;
  /** Connections of a PostgreSQL pool (for /metrics); absent on embedded PGlite, which has one. */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export interface ChangeFeed {
  readonly live: boolean;
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
      const rows = (await tracedQuery(sql, () => lite.query<T>(sql, params))).rows;
      committed.emit([sql]);
      return rows;
    },
    async exec<T>(sql: string) {
      const results = await lite.exec(sql);
      committed.emit([sql]);
      return (results.at(-1)?.rows ?? []) as T[];
    },
    async execAll<T>(sql: string) {
      const results = await lite.exec(sql);
      committed.emit([sql]);
      return results.flatMap((r) => r.rows) as T[];
    },
    async transaction(fn) {
      const statements: string[] = [];
      const result = await lite.transaction((tx) =>
        fn({
          query: async <T>(s: string, p?: unknown[]) => {
            statements.push(s);
            return (await tracedQuery(s, () => tx.query<T>(s, p))).rows;
          },
        }),
      );
      committed.emit(statements);
      return result;
    },
    onCommitted: committed.add,
    watchChanges(channel, pattern, listener) {
      assertChannel(channel);
      committed.add((sql) => {
        if (pattern.test(sql)) listener();
      });
      return { live: true };
    },
    close: () => lite.close(),
  };
}

export function wrapPool(pool: pg.Pool): Db {
  const committed = committedListeners();
  // Names this Db in its notices: it hears its own changes at commit already, not again.
  const origin = randomUUID();
  const changes = changeListener(pool, origin);
  // The channels each watched pattern announces; checked against every write's SQL.
  const announced: { channel: string; pattern: RegExp }[] = [];
  const channelsOf = (statements: string[]) =>
    new Set(announced.filter((a) => statements.some((sql) => a.pattern.test(sql))).map((a) => a.channel));
  const announce = async (q: pg.Pool | pg.PoolClient, statements: string[]) => {
    for (const channel of channelsOf(statements)) await q.query('select pg_notify($1, $2)', [channel, origin]);
  };
  return {
    kind: 'postgres',
    async query<T>(sql: string, params?: unknown[], options?: QueryOptions) {
      const rows = (await tracedQuery(sql, () => pool.query(statement(sql, params, options)))).rows as T[];
      committed.emit([sql]);
      await announce(pool, [sql]);
      return rows;
    },
    async exec<T>(sql: string) {
      // Several statements answer with one result each, a single statement with one result.
      const results: pg.QueryResult | pg.QueryResult[] = await pool.query(sql);
      committed.emit([sql]);
      await announce(pool, [sql]);
      return ((Array.isArray(results) ? results.at(-1) : results)?.rows ?? []) as T[];
    },
    async execAll<T>(sql: string) {
      const results: pg.QueryResult | pg.QueryResult[] = await pool.query(sql);
      committed.emit([sql]);
      await announce(pool, [sql]);
      return (Array.isArray(results) ? results : [results]).flatMap((r) => r.rows ?? []) as T[];
    },
    async transaction(fn) {
      const client = await pool.connect();
      const statements: string[] = [];
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async <T>(s: string, p?: unknown[], options?: QueryOptions) => {
            statements.push(s);
            return (await tracedQuery(s, () => client.query(statement(s, p, options)))).rows as T[];
          },
        });
        // In the transaction: other instances hear of the change exactly when it commits.
        await announce(client, statements);
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
    watchChanges(channel, pattern, listener) {
      assertChannel(channel);
      committed.add((sql) => {
        if (pattern.test(sql)) listener();
      });
      announced.push({ channel, pattern });
      return changes.watch(channel, listener);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await changes.close();
      await pool.end();
    },
  };
}

/** Prepared statements' names, by their text (a bounded set: see QueryOptions). */
const statementNames = new Map<string, string>();

/** The pg query for `sql`: named, so each connection plans it once, when it is to be prepared. */
function statement(text: string, values: unknown[] | undefined, options: QueryOptions | undefined): pg.QueryConfig {
  if (!options?.prepare) return { text, values };
  let name = statementNames.get(text);
  if (!name) {
    name = `lk_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

/** Channels are written into `listen` (an identifier, no parameter): only plain names. */
function assertChannel(channel: string) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
}

/**
 * One connection of its own (outside the pool, which would hand it to a query) that LISTENs to the
 * watched channels. Lost, it reconnects every second; meanwhile the feeds are not live, and once
 * back every listener runs (whatever changed in between was not heard).
 */
function changeListener(pool: pg.Pool, origin: string) {
  const channels = new Map<string, (() => void)[]>();
  const listening = new Set<string>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;

  const heard = (channel: string) => {
    for (const listener of channels.get(channel) ?? []) listener();
  };
  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    listening.clear();
    c.end().catch(() => undefined);
    if (!closed) setTimeout(() => void connect(), 1000).unref();
  };
  const listen = async (c: pg.Client, channel: string) => {
    await c.query(`listen ${channel}`);
    listening.add(channel);
    // Anything may have changed before this point: the listener forgets what it kept.
    heard(channel);
  };
  function connect(): Promise<void> {
    connecting ??= (async () => {
      const c = new pg.Client(pool.options);
      try {
        c.on('notification', (message) => {
          if (message.payload !== origin) heard(message.channel);
        });
        c.on('error', () => lost(c));
        c.on('end', () => lost(c));
        await c.connect();
        if (closed) return void (await c.end());
        client = c;
        for (const channel of channels.keys()) await listen(c, channel);
      } catch {
        // Lost after it was in use: `lost` retries; never in use: retry here.
        if (client === c) lost(c);
        else if (!closed) setTimeout(() => void connect(), 1000).unref();
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  }

  return {
    watch(channel: string, listener: () => void): ChangeFeed {
      const known = channels.get(channel);
      if (known) known.push(listener);
      else {
        channels.set(channel, [listener]);
        if (client) void listen(client, channel).catch(() => client && lost(client));
        else void connect();
      }
      return {
        get live() {
          return listening.has(channel);
        },
      };
    },
    async close() {
      closed = true;
      await connecting;
      const c = client;
      client = undefined;
      listening.clear();
      await c?.end().catch(() => undefined);
    },
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
