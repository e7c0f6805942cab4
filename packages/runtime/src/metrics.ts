import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from './db.ts';
import type { Jobs } from './job-types.ts';

export interface MetricsOptions {
  db: Db;
  jobs?: Jobs;
  /** When set, /metrics answers only `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** Without a token: serve /metrics openly (outside production) or not at all (production). */
  openWithoutToken: boolean;
  /** The program's own gauges, read at each scrape (e.g. the Hub's SIEM destinations). */
  gauges?: ProgramGauge[];
}

/** A gauge a program adds: its series, read from its tables when Prometheus scrapes. */
export interface ProgramGauge {
  name: string;
  help: string;
  labelNames: readonly string[];
  read(): Promise<{ labels: Record<string, string>; value: number }[]>;
}

/** Whether an Authorization header carries exactly `Bearer <token>`, compared in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  if (!given) return false;
  const x = Buffer.from(given);
  const y = Buffer.from(token);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Prometheus metrics at GET /metrics: request latency per route pattern (never the raw URL, whose
 * ids and tokens would make a series per request), the job queue by queue and state, runs by
 * outcome, the database pool, and Node's process metrics. One registry per app, so several apps
 * in one process (the tests) keep their own.
 */
export function registerMetrics(app: FastifyInstance, options: MetricsOptions): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The registered pattern (/api/v1/x/:id); a request no route matched counts as one series.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  const { jobs, db } = options;
  new Gauge({
    name: 'latchkey_ready',
    help: 'Whether this instance would answer /readyz as ready: 1 when its database answers, else 0.',
    registers: [registry],
    async collect() {
      this.set(
        await db.query('select 1').then(
          () => 1,
          () => 0,
        ),
      );
    },
  });
  for (const gauge of options.gauges ?? []) {
    new Gauge({
      name: gauge.name,
      help: gauge.help,
      labelNames: gauge.labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        for (const { labels, value } of await gauge.read()) this.set(labels, value);
      },
    });
  }
  if (jobs) {
    new Gauge({
      name: 'latchkey_jobs',
      help: 'Jobs in the queue by queue and state (created and retry wait, active runs, failed is dead).',
      labelNames: ['queue', 'state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const c of await jobs.counts()) this.set({ queue: c.queue, state: c.state }, c.count);
      },
    });
    const runs = new Counter({
      name: 'latchkey_job_runs_total',
      help: 'Job runs in this process by queue and outcome (completed, retry: failed and will be retried, failed: for good).',
      labelNames: ['queue', 'outcome'] as const,
      registers: [registry],
    });
    jobs.onRun((queue, outcome) => runs.inc({ queue, outcome }));
  }

  const pool = db.poolStats?.bind(db);
  if (pool) {
    new Gauge({
      name: 'latchkey_db_pool_connections',
      help: 'PostgreSQL pool connections: total open, idle, and requests waiting for one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const s = pool();
        this.set({ state: 'total' }, s.total);
        this.set({ state: 'idle' }, s.idle);
        this.set({ state: 'waiting' }, s.waiting);
      },
    });
  }

  const token = options.token;
  if (token || options.openWithoutToken) {
    app.get('/metrics', async (request, reply) => {
      if (token && !bearerMatches(request.headers.authorization, token)) {
        return reply.code(401).send({ code: 'unauthorized', description: 'Metrics need the metrics token.' });
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  }
  return registry;
}
