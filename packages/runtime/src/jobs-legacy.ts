import type { Db, Queryable } from './db.ts';

/**
 * Where the previous release (pg-boss 10, its schema version 24) kept the job queue. pg-boss 11 and
 * later cannot migrate that schema (their migrations start at version 25), so this release keeps its
 * queue in a schema of its own. During a rolling update the old instances go on using this one; the
 * new ones move the jobs waiting here into their queue, at start and at every maintenance pass, so
 * nothing is stranded once the last old instance stops. An operator drops the schema after the
 * upgrade (docs/operations.md, "Upgrade runbook").
 */
export const LEGACY_JOBS_SCHEMA = 'pgboss';
const LEGACY_VERSION = 24;

/** A job as the new queue takes it: same id (so an idempotency key still finds it), data and due time. */
export interface MovedJob {
  id: string;
  data: object;
  priority: number;
  startAfter: Date;
}

export type InsertJobs = (tx: Queryable, queue: string, jobs: MovedJob[]) => Promise<void>;

/**
 * Moves the legacy schema's waiting jobs of `queues` (created, waiting for a retry, or active past
 * their expiry: their worker died) through `insert`, in one transaction per call: each job is in
 * exactly one queue. A job an old instance is running stays there, for it to finish. Returns how
 * many moved.
 */
export async function moveLegacyJobs(db: Db, queues: string[], insert: InsertJobs): Promise<number> {
  if (!queues.length || !(await isLegacySchema(db))) return 0;
  return db.transaction(async (tx) => {
    // Deleting locks the rows: an old worker fetching (skip locked) passes them by, and a second
    // new instance moving at once finds them gone once it gets the lock.
    const rows = await tx.query<{ id: string; name: string; data: object | null; priority: number; start_after: Date }>(
      `delete from ${LEGACY_JOBS_SCHEMA}.job
        where name = any($1::text[])
          and (state in ('created', 'retry') or (state = 'active' and started_on + expire_in < now()))
        returning id, name, data, priority, start_after`,
      [queues],
    );
    for (const queue of queues) {
      const jobs = rows
        .filter((r) => r.name === queue)
        .map((r) => ({ id: r.id, data: r.data ?? {}, priority: r.priority, startAfter: r.start_after }));
      if (jobs.length) await insert(tx, queue, jobs);
    }
    return rows.length;
  });
}

async function isLegacySchema(db: Queryable): Promise<boolean> {
  const [table] = await db.query<{ present: boolean }>(
    `select to_regclass('${LEGACY_JOBS_SCHEMA}.version') is not null and to_regclass('${LEGACY_JOBS_SCHEMA}.job') is not null as present`,
  );
  if (!table?.present) return false;
  const [row] = await db.query<{ version: string }>(`select version::text from ${LEGACY_JOBS_SCHEMA}.version`);
  return Number(row?.version) === LEGACY_VERSION;
}
