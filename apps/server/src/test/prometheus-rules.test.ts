import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { type Harness, startHarness } from './harness.ts';
import { startTestHub, type TestHub } from './hub-process.ts';

/**
 * The alerting rules operators load (deploy/prometheus/latchkey-rules.yaml) may only use metrics the
 * server or the Hub really export: both are started and scraped, so a renamed or dropped metric
 * fails here instead of silencing an alert.
 */
const RULES = new URL('../../../../deploy/prometheus/latchkey-rules.yaml', import.meta.url);

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: { severity?: string };
  annotations?: { summary?: string; description?: string };
}

/** PromQL's own words in our expressions: functions, aggregations and operators. */
const PROMQL = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'rate',
  'increase',
  'max_over_time',
  'min_over_time',
  'histogram_quantile',
  'and',
  'or',
  'unless',
  'bool',
]);
/** The series Prometheus itself writes for every target it scrapes. */
const FROM_PROMETHEUS = new Set(['up']);
/** Exported only on PostgreSQL (embedded PGlite has no pool): checked on the PostgreSQL pass. */
const POSTGRES_ONLY = new Set(['latchkey_db_pool_connections']);

/** The metric names an expression reads (label matchers, ranges, strings and grouping lists taken out). */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"[^"]*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const words = [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]);
  return [...new Set(words.filter((w) => !PROMQL.has(w)))];
}

/** Every sample name in a Prometheus text exposition (histograms' _bucket, _sum and _count included). */
function sampleNames(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.split(/[{ ]/)[0] ?? ''),
  );
}

const rules: Rule[] = (parse(readFileSync(RULES, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);

let h: Harness;
let hub: TestHub;
beforeAll(async () => {
  [h, hub] = await Promise.all([startHarness({ seed: false }), startTestHub()]);
}, 120_000);
afterAll(async () => {
  await hub?.close();
  await h?.close();
});

describe('deploy/prometheus/latchkey-rules.yaml', () => {
  test('the expression parser finds metric names and nothing else', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (job, le) (rate(http_request_duration_seconds_bucket{route!="/metrics"}[5m]))) > 2.5',
      ),
    ).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricNames('max by (job, queue) (latchkey_jobs{state=~"created|retry"}) > 1000 and up == 1')).toEqual([
      'latchkey_jobs',
      'up',
    ]);
  });

  test('each alert has an expression, a severity and words for the operator', () => {
    expect(rules.length).toBeGreaterThanOrEqual(8);
    for (const rule of rules) {
      expect(rule.alert, JSON.stringify(rule)).toMatch(/^Latchkey[A-Z]\w+$/);
      expect(rule.expr.trim(), rule.alert).not.toBe('');
      expect(['critical', 'warning'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
    }
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
  });

  test('every metric an alert reads is exported by the server or the Hub at /metrics', async () => {
    // A request first, so the latency histogram has series.
    await fetch(`${h.url}/readyz`);
    await fetch(`${hub.url}/readyz`);
    const exported = new Set([
      ...sampleNames(await (await fetch(`${h.url}/metrics`)).text()),
      ...sampleNames(await (await fetch(`${hub.url}/metrics`)).text()),
    ]);
    const onPglite = h.db.kind === 'pglite';
    const missing = rules.flatMap((rule) =>
      metricNames(rule.expr)
        .filter((name) => !FROM_PROMETHEUS.has(name) && !(onPglite && POSTGRES_ONLY.has(name)))
        .filter((name) => !exported.has(name))
        .map((name) => `${rule.alert}: ${name}`),
    );
    expect(missing).toEqual([]);
    // The metrics the alerts rest on, by name (a guard against an empty scrape passing).
    for (const name of ['latchkey_ready', 'latchkey_jobs', 'latchkey_siem_destinations', 'nodejs_eventloop_lag_p99_seconds'])
      expect(exported, name).toContain(name);
  });
});
