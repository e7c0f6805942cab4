// What the API benches share: a load run (bench-load.mjs), and its figures.
import { Worker } from 'node:worker_threads';

export interface LoadResult {
  latenciesMs: number[];
  errors: number;
  seconds: number;
}

export interface LoadJob {
  url: string;
  token: string;
  bodies: string[];
  seconds: number;
  concurrency: number;
  /** Requests a second, open loop; closed loop at `concurrency` without it. */
  rate?: number;
  /** A token per body (signed calls are each accepted once); `token` for all without it. */
  tokens?: string[];
  /** Sends each body once, then ends (within `seconds`). */
  once?: boolean;
  /**
   * The client runs in this thread, beside the server, as a raw query's loop does, rather than in
   * a thread of its own: compared with that query, neither side then has a second thread taking
   * turns with server and database on the cores (in use the client is another machine). A reply
   * is timed when this thread reads it, so the server's work can only lengthen what is measured.
   */
  sameThread?: boolean;
}

export async function load(job: LoadJob): Promise<LoadResult> {
  if (job.sameThread) return (await import('./bench-load.mjs')).run(job);
  return new Promise<LoadResult>((resolve, reject) => {
    const worker = new Worker(new URL('./bench-load.mjs', import.meta.url), { workerData: job });
    worker.once('message', (result: LoadResult) => {
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', reject);
  });
}

/** Several runs of one load as one: their latencies together, over their time together. */
export function pooled(runs: LoadResult[]): LoadResult {
  return {
    latenciesMs: runs.flatMap((r) => r.latenciesMs),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    seconds: runs.reduce((n, r) => n + r.seconds, 0),
  };
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export function summary(r: LoadResult) {
  const sorted = [...r.latenciesMs].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    rps: sorted.length / r.seconds,
    errors: r.errors,
  };
}

const ms = (n: number) => `${n.toFixed(2).padStart(6)} ms`;

/** One result as a line: label, p50/p95/p99 and throughput. */
export function line(label: string, r: LoadResult): string {
  const s = summary(r);
  return `${label.padEnd(46)} p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  ${Math.round(s.rps).toString().padStart(6)} req/s${s.errors ? `  ${s.errors} errors` : ''}`;
}
