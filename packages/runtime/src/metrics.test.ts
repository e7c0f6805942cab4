import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from './db.ts';
import { createHttpApp } from './http.ts';
import type { Jobs } from './job-types.ts';
import { createJobs } from './jobs.ts';
import { registerMetrics } from './metrics.ts';
import { createTestDb } from './testing/test-db.ts';

const dir = mkdtempSync(join(tmpdir(), 'latchkey-runtime-metrics-'));
writeFileSync(join(dir, '0001_none.sql'), 'create table nothing (id int);\n');
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

let db: Db;
let jobs: Jobs;
const apps: FastifyInstance[] = [];
beforeAll(async () => {
  db = await createTestDb(dir);
  jobs = createJobs(db, { log: quiet });
  const doomed = jobs.define(
    'metrics-doomed',
    async () => {
      throw new Error('always');
    },
    { retryLimit: 0 },
  );
  jobs.define('metrics-idle', async () => undefined);
  await jobs.start();
  await doomed.enqueue(db, {});
}, 60_000);
afterAll(async () => {
  for (const app of apps) await app.close();
  await jobs?.stop();
  await db?.close();
});

async function serve(options: { token?: string; openWithoutToken: boolean }) {
  const app = createHttpApp({ logLevel: 'silent', checkReplies: false });
  registerMetrics(app, { db, jobs, ...options });
  app.get('/api/v1/things/:id', async () => ({ ok: true }));
  apps.push(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

async function scrape(url: string, token?: string) {
  const res = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('/metrics', () => {
  test('request latency by route pattern (never the raw URL), jobs by queue and state, in Prometheus text', async () => {
    const url = await serve({ openWithoutToken: true });
    await fetch(`${url}/api/v1/things/secret-id-1`);
    await fetch(`${url}/api/v1/things/secret-id-2`);
    await fetch(`${url}/no/such/path`);
    // The doomed job (no retries) is failed once its only run ends.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !(await scrape(url)).text.includes('latchkey_jobs{queue="metrics-doomed",state="failed"} 1'))
      await new Promise((r) => setTimeout(r, 50));

    const { status, type, text } = await scrape(url);
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/api/v1/things/:id",status="200"} 2');
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1');
    expect(text).not.toContain('secret-id');
    expect(text).toContain('latchkey_jobs{queue="metrics-doomed",state="failed"} 1');
    expect(text).toContain('latchkey_jobs{queue="metrics-idle",state="created"} 0');
    expect(text).toContain('latchkey_job_runs_total{queue="metrics-doomed",outcome="failed"} 1');
    expect(text).toContain('process_cpu_user_seconds_total');
    if (db.kind === 'postgres') expect(text).toMatch(/latchkey_db_pool_connections\{state="total"\} [1-9]/);
    else expect(text).not.toContain('latchkey_db_pool_connections');
  });

  test('with METRICS_TOKEN set, only a bearer of the token may read', async () => {
    const url = await serve({ token: 'metrics-token-0123456789', openWithoutToken: true });
    expect((await scrape(url)).status).toBe(401);
    expect((await scrape(url, 'metrics-token-wrong-456789')).status).toBe(401);
    const ok = await scrape(url, 'metrics-token-0123456789');
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('latchkey_jobs');
  });

  test('without a token where it must not be open (production), there is no /metrics', async () => {
    const url = await serve({ openWithoutToken: false });
    expect((await scrape(url)).status).toBe(404);
  });
});
