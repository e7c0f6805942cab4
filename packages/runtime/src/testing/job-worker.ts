// A tiny worker process for the kill -9 test (jobs.kill.test.ts): opens the database named in its
// environment, enqueues one job with an idempotency key, and runs the queue. With HANG=1 its
// handler makes its effect and then never finishes, so the test can kill it mid-job.
import { openDb } from '../db.ts';
import { createJobs } from '../jobs.ts';
import { migrate } from '../migrate.ts';

const env = process.env;
const db = await openDb({ url: env.JOB_DB_URL, dataDir: env.JOB_DATA_DIR ?? '' });
await migrate(db, env.JOB_MIGRATIONS_DIR ?? '');
const say = (line: string) => process.stdout.write(`${line}\n`);
const jobs = createJobs(db, {
  log: { info: () => undefined, warn: () => undefined, error: (o, m) => say(`ERROR ${m} ${JSON.stringify(o)}`) },
  maintenanceIntervalSeconds: 1,
});
let finished: () => void = () => undefined;
const done = new Promise<void>((resolve) => {
  finished = resolve;
});
const effects = jobs.define<{ key: string }>(
  'kill-effects',
  async ({ key }, run) => {
    await db.query('insert into runs (key, pid, attempt) values ($1, $2, $3)', [key, process.pid, run.attempt]);
    // The effect is idempotent: a re-run of a job whose first run got this far adds nothing.
    await db.query('insert into effects (key) values ($1) on conflict do nothing', [key]);
    if (env.HANG === '1') {
      say(`ACTIVE ${run.attempt}`);
      await new Promise(() => undefined);
    }
    finished();
  },
  { retryLimit: 3, retryDelaySeconds: 1, expireInSeconds: 2 },
);
await jobs.start();
const added = await effects.enqueue(db, { key: 'k1' }, { key: 'effect:k1' });
say(`ENQUEUED ${added}`);
await done;
// Let pg-boss mark the job completed before stopping.
await new Promise((r) => setTimeout(r, 300));
await jobs.stop();
await db.close();
say('DONE');
