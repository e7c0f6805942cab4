import { randomInt } from 'node:crypto';
import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createHubDb, type RunningHub, startHub } from '../testing/hub-fixture.ts';

let db: Db;
let hub: RunningHub;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

const health = (origin: string) => fetch(`${hub.url}/api/v1/server/health/status/`, { headers: { origin } });
const preflight = (origin: string) =>
  fetch(`${hub.url}/auth/token/`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
  });

describe('CORS', () => {
  it('lets the configured console origin read replies', async () => {
    const res = await health(CONSOLE_ORIGIN);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('lets the console read error replies too, so it can act on their code', async () => {
    const res = await fetch(`${hub.url}/auth/token/`, {
      method: 'POST',
      headers: { origin: CONSOLE_ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ team_slug: 'northwind' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
  });

  it('gives any other origin no CORS headers', async () => {
    const res = await health('https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows the preflight of a token call from the console only', async () => {
    const ok = await preflight(CONSOLE_ORIGIN);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
    expect(ok.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');

    const other = await preflight('http://console.test:9999');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("lets the console send its request id and read the Hub's back", async () => {
    const ok = await fetch(`${hub.url}/auth/token/`, {
      method: 'OPTIONS',
      headers: {
        origin: CONSOLE_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-request-id',
      },
    });
    expect(ok.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-request-id');
    const res = await fetch(`${hub.url}/api/v1/server/health/status/`, {
      headers: { origin: CONSOLE_ORIGIN, 'x-request-id': 'web-1234abcd' },
    });
    expect(res.headers.get('x-request-id')).toBe('web-1234abcd');
    expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-request-id');
  });
});

describe('rate limit', () => {
  it('answers too_many_requests_msg past the limit, but never limits probes', async () => {
    const limited = await startHub(db, {}, 3);
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`${limited.url}/api/v1/server/health/status/`)).status).toBe(200);
      const res = await fetch(`${limited.url}/api/v1/server/health/status/`);
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual({ code: 'too_many_requests_msg', description: 'Too many requests. Try again later.' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await fetch(`${limited.url}/healthz`)).status).toBe(200);
    } finally {
      await limited.app.close();
    }
  });
});

describe('security finding 10', () => {
  it('with REDIS_URL, instances share the limit: a client cannot multiply it by the number of Hubs', async () => {
    const env = { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', TRUST_PROXY: 'true' };
    const a = await startHub(db, env, 3);
    const b = await startHub(db, env, 3);
    // A client address of its own, so no other run counts against it.
    const headers = { 'x-forwarded-for': `10.${randomInt(255)}.${randomInt(255)}.${randomInt(1, 255)}` };
    try {
      const statuses: number[] = [];
      for (const hub of [a, b, a, b]) {
        statuses.push((await fetch(`${hub.url}/api/v1/server/health/status/`, { headers })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await a.app.close();
      await b.app.close();
    }
  });

  it('every reply is Cache-Control: no-store (tokens and team data must not be kept by a browser or proxy)', async () => {
    expect((await health(CONSOLE_ORIGIN)).headers.get('cache-control')).toBe('no-store');
    const refused = await fetch(`${hub.url}/auth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ team_slug: 'northwind' }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it('bodies are JSON: a form post is refused with 415', async () => {
    const res = await fetch(`${hub.url}/auth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'team_slug=northwind',
    });
    expect(res.status).toBe(415);
  });
});
