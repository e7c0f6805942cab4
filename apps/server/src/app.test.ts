import { readFileSync, writeFileSync } from 'node:fs';
import { ERROR_STATUS, endpointsOf } from '@latchkey/contracts';
import { documentedOperations } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildServer } from './app.ts';
import { LOGO_FILE_PATH } from './features/branding/branding.service.ts';
import { CONSENT_PAGES } from './features/onboarding/onboarding.routes.ts';
import { type Harness, startHarness } from './test/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: false });
});
afterAll(() => h?.close());

describe('operations', () => {
  test('/healthz and /readyz answer', async () => {
    const health = await h.get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await h.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  test('/metrics: request latency by route pattern and the mail queue by state, in Prometheus text', async () => {
    await h.get('/readyz');
    const res = await fetch(`${h.url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/readyz",status="200"}');
    expect(text).toContain('latchkey_jobs{queue="mail",state="failed"} 0');
  });

  test('/metrics with METRICS_TOKEN: only its bearer may read; in production without one, no /metrics', async () => {
    const guarded = await buildServer({ config: { ...h.config, METRICS_TOKEN: 'metrics-token-0123456789' }, db: h.db });
    const production = await buildServer({ config: { ...h.config, NODE_ENV: 'production' }, db: h.db });
    try {
      expect((await guarded.inject({ url: '/metrics' })).statusCode).toBe(401);
      const ok = await guarded.inject({ url: '/metrics', headers: { authorization: 'Bearer metrics-token-0123456789' } });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('latchkey_jobs{queue="mail"');
      expect((await production.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await guarded.close();
      await production.close();
    }
  });

  test('/openapi.json is the published document, byte for byte (UPDATE_OPENAPI=1 writes it)', async () => {
    const served = await (await fetch(`${h.url}/openapi.json`)).text();
    const published = new URL('../../../docs/openapi/server.json', import.meta.url);
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(published, served);
    expect(served).toBe(readFileSync(published, 'utf8'));
  });

  test('/openapi.json documents exactly the calls Fastify serves (both ways), with each declared method and security', async () => {
    const res = await h.get<{
      openapi: string;
      paths: Record<string, Record<string, { security: unknown[]; responses?: Record<string, { description: string }> }>>;
    }>('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    // Routes that are not calls: probes, the document itself, metrics, the console's files, the logo image and the consent popup's pages.
    const notCalls = new Set([
      '/healthz',
      '/readyz',
      '/openapi.json',
      '/metrics',
      '/*',
      `${LOGO_FILE_PATH}:id`,
      ...CONSENT_PAGES,
    ]);
    const served = h.app.servedRoutes
      .filter((r) => r.method !== 'HEAD' && !notCalls.has(r.url))
      // The SCIM server is RFC 7644's protocol, not a console call: documented by its own /ServiceProviderConfig.
      .filter((r) => !r.url.startsWith('/scim/v2'))
      .map((r) => `${r.method} ${r.url}`);
    expect(documentedOperations(res.body).sort()).toEqual([...new Set(served)].sort());
    for (const endpoint of endpointsOf('server')) {
      const operation = res.body.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      expect(operation, endpoint.path).toBeDefined();
      expect(operation?.security).toEqual(endpoint.auth === 'public' ? [] : [{ bearer: [] }]);
      // Each error code the declaration names is documented under its status.
      for (const code of endpoint.errors ?? []) {
        expect(operation?.responses?.[ERROR_STATUS[code]]?.description, `${endpoint.path} ${code}`).toContain(code);
      }
    }
    expect(res.body.paths['/api/v1/team/group/edit/']?.post?.responses).toHaveProperty(
      ['409', 'description'],
      'group_already_exists',
    );
  });

  test('every call in the document is served', async () => {
    for (const endpoint of endpointsOf('server')) {
      const res = endpoint.method === 'GET' ? await h.get(endpoint.path) : await h.post(endpoint.path, {});
      expect(res.body.code, endpoint.path).not.toBe('not_found');
    }
  });
});

describe('security headers', () => {
  for (const path of ['/healthz', '/no-such-page']) {
    test(`are sent on ${path}`, async () => {
      const res = await h.get(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      const directives = new Map(
        csp.split(';').map((d) => {
          const [name = '', ...values] = d.trim().split(/\s+/);
          return [name, values] as const;
        }),
      );
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(directives.get('script-src')).toEqual(["'self'"]);
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(directives.get('default-src')).toEqual(["'self'"]);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('strict-transport-security')).toContain('max-age=31536000');
      expect(res.headers.get('x-powered-by')).toBeNull();
    });
  }
});
