// `npm run bench` with TEST_DATABASE_URL (SCIM): on a PostgreSQL database of its own,
//   1. provisioning through the real SCIM API: BENCH_SCIM_USERS users (default 100,000) and
//      BENCH_SCIM_GROUPS groups (default 5,000, 20 members each), POSTed as an IdP does, 16 at a time;
//   2. a mixed Entra-like load for BENCH_SECONDS (default 10), closed loop at 16 connections:
//      55% GET /Users?filter=userName eq, 15% PATCH a user (replace displayName), 10% GET /Groups by
//      displayName without members, 10% PATCH a group (add then remove a member), 10% POST a user;
//   3. one PATCH adding 10,000 members to one group;
//   4. database statements per request of each kind of the mix (noise-free, unlike the timings),
//      sent one at a time: every statement is a round trip to PostgreSQL.
// The load runs in a worker thread, so server and client each have a core.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createPostgresDb } from '@latchkey/runtime/testing';
import pg from 'pg';
import { buildServer } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { MIGRATIONS_DIR } from '../apps/server/src/db/migrations-dir.ts';
import { DEMO_ADMINS, DEMO_PASSWORD, seedDemo } from '../apps/server/src/features/demo/seed.ts';
import type { Mail } from '../apps/server/src/platform/mail.ts';

const USERS = Number(process.env.BENCH_SCIM_USERS ?? 100_000);
const GROUPS = Number(process.env.BENCH_SCIM_GROUPS ?? 5_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = 16;
const BIG_PATCH = Math.min(10_000, USERS);

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.info('SCIM bench skipped: set TEST_DATABASE_URL to a PostgreSQL server');
  process.exit(0);
}

interface Req {
  method: string;
  path: string;
  body?: unknown;
}
interface Result {
  latencies: number[];
  statuses: Record<number, number>;
  seconds: number;
  replies: unknown[];
}

/** Requests from a worker thread: closed loop at `concurrency`, a list in order (`keep` replies kept) or a mix until `seconds`. */
function run(
  base: string,
  token: string,
  job: { list?: Req[]; mix?: [number, Req[]][]; seconds?: number; keep?: boolean; concurrency?: number },
) {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { base, token, job, concurrency } = workerData;
    const latencies = []; const statuses = {}; const replies = [];
    const send = async (r) => {
      const t = performance.now();
      const res = await fetch(base + r.path, { method: r.method, headers: { authorization: 'Bearer ' + token,
        ...(r.body ? { 'content-type': 'application/scim+json' } : {}) }, body: r.body ? JSON.stringify(r.body) : undefined });
      const text = await res.text();
      latencies.push(performance.now() - t);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      return text;
    };
    const pick = () => { let x = Math.random(); for (const [w, list] of job.mix) { if ((x -= w) <= 0) return list[Math.floor(Math.random() * list.length)]; } return job.mix[0][1][0]; };
    (async () => {
      const started = performance.now();
      if (job.list) {
        let i = 0;
        await Promise.all(Array.from({ length: concurrency }, async () => {
          while (i < job.list.length) { const k = i++; const text = await send(job.list[k]); if (job.keep) replies[k] = text ? JSON.parse(text) : null; }
        }));
      } else {
        const deadline = started + job.seconds * 1000;
        await Promise.all(Array.from({ length: concurrency }, async () => { while (performance.now() < deadline) await send(pick()); }));
      }
      parentPort.postMessage({ latencies, statuses, seconds: (performance.now() - started) / 1000, replies });
    })();`;
  return new Promise<Result>((resolve, reject) => {
    const worker = new Worker(code, {
      eval: true,
      workerData: { base, token, job, concurrency: job.concurrency ?? CONCURRENCY },
    });
    worker.once('message', (r: Result) => {
      void worker.terminate();
      resolve(r);
    });
    worker.once('error', reject);
  });
}

// Every statement any pool client sends (the server's, pg-boss's): counted for section 4.
let statements = 0;
// Those of the job queue's worker (pg-boss polling for and completing the invitation mails) apart.
let jobStatements = 0;
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  const text = String((args[0] as { text?: string })?.text ?? args[0]);
  if (/job_queue\.j/.test(text) && !/INSERT INTO job_queue/i.test(text)) jobStatements++;
  // BENCH_SCIM_TRACE=1: every statement, to see what a kind of request sends.
  if (process.env.BENCH_SCIM_TRACE) console.info('SQL', text.replace(/\s+/g, ' ').slice(0, 140));
  return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof clientQuery;

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
function describe(label: string, r: Result): string {
  const s = [...r.latencies].sort((a, b) => a - b);
  return `${label.padEnd(44)} ${r.latencies.length.toString().padStart(7)} req in ${r.seconds.toFixed(1).padStart(6)} s  ${Math.round(
    r.latencies.length / r.seconds,
  )
    .toString()
    .padStart(
      5,
    )} req/s  p50 ${pct(s, 0.5).toFixed(1)} ms  p99 ${pct(s, 0.99).toFixed(1)} ms  statuses ${JSON.stringify(r.statuses)}`;
}

const db = await createPostgresDb(MIGRATIONS_DIR, url, 10);
try {
  await seedDemo(db, {});
  const codes: string[] = [];
  const mailer = { send: async (m: Mail) => void codes.push(/\b(\d{6})\b/.exec(m.text)?.[1] ?? '') };
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: db.url,
    WEB_DIST: '/nonexistent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'latchkey-bench-')),
    SMTP_URL: 'smtp://127.0.0.1:1',
    PUBLIC_URL: 'https://console.bench.example',
    // The bench measures throughput: no connector budget in the way.
    SCIM_RATE_LIMIT_PER_SECOND: '1000000',
  });
  const app = await buildServer({ config, db, mailer, rateLimitPerMinute: 100_000_000 });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const post = async (path: string, body: unknown, token?: string) =>
    (
      await fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      })
    ).json() as Promise<Record<string, unknown>>;
  const email = DEMO_ADMINS.superAdmin;
  await post('/api/v1/console/auth/login/', { email, team_slug: 'northwind' });
  await post('/api/v1/console/auth/verify/password/', { email, password: DEMO_PASSWORD, team_slug: 'northwind' });
  for (let i = 0; i < 100 && codes.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  const signedIn = (await post('/api/v1/console/auth/verify/otp/', {
    email,
    otp: codes.at(-1),
    password: DEMO_PASSWORD,
    team_slug: 'northwind',
  })) as { token: { access: string } };
  const created = (await post('/api/v1/team/scim/connector/create/', { idp: 'entra', name: 'Bench' }, signedIn.token.access)) as {
    token: string;
  };
  const token = created.token;
  await db.query(`update teams set total_licences = -1 where slug = 'northwind'`);
  const scimBase = `${base}/scim/v2`;

  // 1. Provisioning.
  const provisionStarted = performance.now();
  const userReqs: Req[] = Array.from({ length: USERS }, (_, i) => ({
    method: 'POST',
    path: '/Users',
    body: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      userName: `bench.user.${i}@bench.example`,
      externalId: `ext-${i}`,
      active: true,
      name: { givenName: 'Bench', familyName: `User ${i}` },
      emails: [{ primary: true, type: 'work', value: `bench.user.${i}@bench.example` }],
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: `Dept ${i % 50}` },
    },
  }));
  const users = await run(scimBase, token, { list: userReqs, keep: true });
  const userIds = (users.replies as { id?: string }[]).map((r) => r?.id).filter((id): id is string => Boolean(id));
  console.info(describe(`POST /Users × ${USERS.toLocaleString('en-US')}`, users));
  const groupReqs: Req[] = Array.from({ length: GROUPS }, (_, i) => ({
    method: 'POST',
    path: '/Groups',
    body: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: `Bench group ${i}`,
      externalId: `grp-${i}`,
      members: Array.from({ length: 20 }, (_, k) => ({ value: userIds[(i * 20 + k) % userIds.length] })),
    },
  }));
  const groups = await run(scimBase, token, { list: groupReqs, keep: true });
  const groupIds = (groups.replies as { id?: string }[]).map((r) => r?.id).filter((id): id is string => Boolean(id));
  console.info(describe(`POST /Groups × ${GROUPS.toLocaleString('en-US')} (20 members each)`, groups));
  const provisionSeconds = (performance.now() - provisionStarted) / 1000;
  console.info(
    `provisioned ${userIds.length.toLocaleString('en-US')} users and ${groupIds.length.toLocaleString('en-US')} groups in ${provisionSeconds.toFixed(1)} s`,
  );
  await db.exec('vacuum analyze members');
  await db.exec('vacuum analyze groups');

  // 2. Mixed Entra-like load.
  const sample = <T>(list: T[], n: number) => Array.from({ length: n }, () => list[Math.floor(Math.random() * list.length)] as T);
  const someUsers = sample(userIds, 500);
  const someGroups = sample(groupIds, 200);
  const mix: [number, Req[]][] = [
    [
      0.55,
      sample(userReqs, 500).map((r) => ({
        method: 'GET',
        path: `/Users?filter=${encodeURIComponent(`userName eq "${(r.body as { userName: string }).userName}"`)}`,
      })),
    ],
    [
      0.15,
      someUsers.map((id, i) => ({
        method: 'PATCH',
        path: `/Users/${id}`,
        body: {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'Replace', path: 'displayName', value: `Renamed ${i}` }],
        },
      })),
    ],
    [
      0.1,
      someGroups.map((_, i) => ({
        method: 'GET',
        path: `/Groups?excludedAttributes=members&filter=${encodeURIComponent(`displayName eq "Bench group ${i}"`)}`,
      })),
    ],
    [
      0.1,
      someGroups.flatMap((gid, i) => [
        {
          method: 'PATCH',
          path: `/Groups/${gid}`,
          body: { Operations: [{ op: 'Add', path: 'members', value: [{ value: someUsers[i] }] }] },
        },
        {
          method: 'PATCH',
          path: `/Groups/${gid}`,
          body: { Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: someUsers[i] }] }] },
        },
      ]),
    ],
    [
      0.1,
      Array.from({ length: 20_000 }, (_, i) => ({
        method: 'POST',
        path: '/Users',
        body: {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: `mixed.${i}.${Math.random().toString(36).slice(2)}@bench.example`,
        },
      })),
    ],
  ];
  await run(scimBase, token, { mix, seconds: 2 }); // warm-up
  // How busy the server's thread was: less at the mercy of other processes than wall-clock latency.
  const busy = performance.eventLoopUtilization();
  const mixed = await run(scimBase, token, { mix, seconds: SECONDS });
  const used = performance.eventLoopUtilization(busy);
  console.info(describe(`mixed Entra-like load, ${CONCURRENCY} connections`, mixed));
  console.info(
    `server thread busy ${(used.utilization * 100).toFixed(0)}% of the mixed load: ${(used.active / mixed.latencies.length).toFixed(2)} ms of its time per request`,
  );

  // 3. One PATCH adding 10,000 members to one group.
  const [big] = (
    await run(scimBase, token, {
      list: [{ method: 'POST', path: '/Groups', body: { displayName: 'Bench big group' } }],
      keep: true,
    })
  ).replies as { id: string }[];
  const started = performance.now();
  const patch = await run(scimBase, token, {
    list: [
      {
        method: 'PATCH',
        path: `/Groups/${big?.id}`,
        body: { Operations: [{ op: 'Add', path: 'members', value: userIds.slice(0, BIG_PATCH).map((value) => ({ value })) }] },
      },
    ],
  });
  console.info(
    `PATCH adding ${BIG_PATCH.toLocaleString('en-US')} members to one group: ${(performance.now() - started).toFixed(0)} ms (status ${JSON.stringify(patch.statuses)})`,
  );

  // 4. Statements per request, by kind, one request at a time.
  const kinds: [string, Req[]][] = [
    ['GET /Users?filter=userName eq', mix[0]?.[1].slice(0, 40) ?? []],
    ['PATCH /Users (replace displayName)', mix[1]?.[1].slice(0, 40) ?? []],
    [
      'PATCH /Users (active false)',
      someUsers.slice(100, 140).map((id) => ({
        method: 'PATCH',
        path: `/Users/${id}`,
        body: { Operations: [{ op: 'Replace', path: 'active', value: 'False' }] },
      })),
    ],
    ['GET /Groups?filter=displayName eq', mix[2]?.[1].slice(0, 40) ?? []],
    ['PATCH /Groups (add, remove a member)', mix[3]?.[1].slice(0, 40) ?? []],
    ['POST /Users', mix[4]?.[1].slice(10_000, 10_040) ?? []],
  ];
  for (const [label, list] of kinds) {
    const before = statements;
    const beforeJobs = jobStatements;
    const one = await run(scimBase, token, { list, concurrency: 1 });
    // Whole statements; BEGIN and COMMIT count. The request log is batched (one statement per batch).
    const jobs = jobStatements - beforeJobs;
    console.info(
      `${label.padEnd(40)} ${((statements - before - jobs) / list.length).toFixed(1)} statements per request, +${(jobs / list.length).toFixed(1)} of the job worker (statuses ${JSON.stringify(one.statuses)})`,
    );
  }
  await app.close();
} finally {
  await db.close();
}
