import { defineEndpoint } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpApp } from './http.ts';
import { createRouter } from './router.ts';

const call = (name: string) =>
  defineEndpoint({
    name,
    program: 'server',
    method: 'POST',
    path: `/test/${name}/`,
    auth: 'public',
    summary: `The ${name} call.`,
    input: z.object({}),
    output: z.object({ ok: z.boolean() }),
  });
const a = call('a');
const b = call('b');
const stranger = call('stranger');
const noGuard = async () => null;
const ok = async () => ({ ok: true });

describe('a program router', () => {
  it('refuses to start while a declared call has no handler', () => {
    const router = createRouter(createHttpApp({ logLevel: 'silent', checkReplies: true }), 'server', [a, b]);
    router.handle(a, noGuard, ok);
    expect(() => router.complete()).toThrow('The server has no handler for: b.');
  });

  it('refuses a handler for a call the program does not declare, and a second handler for one call', () => {
    const router = createRouter(createHttpApp({ logLevel: 'silent', checkReplies: true }), 'server', [a]);
    expect(() => router.handle(stranger, noGuard, ok)).toThrow('stranger (/test/stranger/) is not declared as a server call.');
    router.handle(a, noGuard, ok);
    expect(() => router.handle(a, noGuard, ok)).toThrow('a has two handlers.');
  });

  it('serves every handled call, and accounts for withheld ones without serving them', async () => {
    const app = createHttpApp({ logLevel: 'silent', checkReplies: true });
    const router = createRouter(app, 'server', [a, b]);
    router.handle(a, noGuard, ok);
    router.withheld().handle(b, noGuard, ok);
    expect(router.complete()).toEqual([a]);
    expect((await app.inject({ method: 'POST', url: '/test/a/', payload: {} })).json()).toEqual({ ok: true });
    expect((await app.inject({ method: 'POST', url: '/test/b/', payload: {} })).statusCode).toBe(404);
    expect(app.servedRoutes.filter((r) => r.url.startsWith('/test/'))).toEqual([{ method: 'POST', url: '/test/a/' }]);
  });
});
