import { readFileSync, writeFileSync } from 'node:fs';
import { endpointsOf } from '@latchkey/contracts';
import { type Db, documentedOperations } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubDb, type RunningHub, startHub } from '../../testing/hub-fixture.ts';

let db: Db;
let hub: RunningHub;
let oldHub: RunningHub;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
  oldHub = await startHub(db, { HUB_VERSION: '1.0' });
});
afterAll(async () => {
  await hub.app.close();
  await oldHub.app.close();
  await db.close();
});

/** What Fastify serves that is a call: not the probes, metrics, the document itself or CORS preflights (`OPTIONS *`). */
function servedCalls(running: RunningHub): string[] {
  const notCalls = new Set(['/healthz', '/readyz', '/openapi.json', '/metrics', '*']);
  const served = running.app.servedRoutes.filter((r) => r.method !== 'HEAD' && !notCalls.has(r.url));
  return [...new Set(served.map((r) => `${r.method} ${r.url}`))].sort();
}

describe('health', () => {
  it('reports ok and the configured version, unprotected', async () => {
    const res = await fetch(`${hub.url}/api/v1/server/health/status/`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', version: '2.2.0' });
  });

  it('reports an older version when the Hub is configured with one', async () => {
    const res = await fetch(`${oldHub.url}/api/v1/server/health/status/`);
    expect(await res.json()).toEqual({ status: 'ok', version: '1.0' });
  });

  it('serves /metrics in Prometheus text: request latency by route pattern, the mail queue by state', async () => {
    await fetch(`${hub.url}/api/v1/server/health/status/`);
    const res = await fetch(`${hub.url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="/api/v1/server/health/status/",status="200"}',
    );
    expect(text).toContain('latchkey_jobs{queue="mail",state="created"} 0');
  });

  it('answers liveness and readiness probes', async () => {
    expect(await (await fetch(`${hub.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${hub.url}/readyz`)).json()).toEqual({ status: 'ready' });
  });

  it('serves the published /openapi.json, byte for byte (UPDATE_OPENAPI=1 writes it)', async () => {
    const served = await (await fetch(`${hub.url}/openapi.json`)).text();
    const published = new URL('../../../../../docs/openapi/hub.json', import.meta.url);
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(published, served);
    expect(served).toBe(readFileSync(published, 'utf8'));
  });

  it('describes every Hub call in /openapi.json', async () => {
    const doc = (await (await fetch(`${hub.url}/openapi.json`)).json()) as { info: { version: string }; paths: object };
    expect(doc.info.version).toBe('2.2.0');
    // Exactly the routes Fastify serves, both ways (probes, metrics and the document itself are not calls),
    // and on this version every call the Hub declares.
    expect(documentedOperations(doc as { paths: Record<string, object> }).sort()).toEqual(servedCalls(hub));
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(endpointsOf('hub').map((e) => e.path))].sort());
  });

  it('leaves a service its version does not run out of both the routes and /openapi.json', async () => {
    const doc = (await (await fetch(`${oldHub.url}/openapi.json`)).json()) as { paths: Record<string, object> };
    expect(documentedOperations(doc).sort()).toEqual(servedCalls(oldHub));
    expect(doc.paths).not.toHaveProperty(['/api/v1/audit/vault/summaries/']);
    expect(doc.paths).toHaveProperty(['/api/v1/server/health/status/']);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/integrate/connector/',
        '/api/v1/server/health/status/',
        '/auth/token/',
        '/auth/token/refresh/',
      ]),
    );
    expect(doc.paths).toHaveProperty(['/api/v1/server/health/status/', 'get']);
    expect(doc.paths).toHaveProperty(['/auth/token/', 'post']);
  });

  it('replies to an unknown call in the error shape, with security headers', async () => {
    const res = await fetch(`${hub.url}/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 'not_found', description: 'No such call.' });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('strict-transport-security')).toContain('max-age=31536000');
  });
});
