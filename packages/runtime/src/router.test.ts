import { defineEndpoint } from '@latchkey/contracts';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { AppError } from './errors.ts';
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

  it("in tests, a call answering an error code its declaration does not list is the program's fault (500)", async () => {
    // Collecting the codes instead (scripts/declare-errors.mjs) turns the check off.
    const collecting = process.env.LATCHKEY_UNDECLARED_ERRORS;
    delete process.env.LATCHKEY_UNDECLARED_ERRORS;
    onTestFinished(() => {
      if (collecting) process.env.LATCHKEY_UNDECLARED_ERRORS = collecting;
    });
    const declared = { ...call('declared'), errors: ['not_found'] as const };
    const app = createHttpApp({ logLevel: 'silent', checkReplies: true });
    const router = createRouter(app, 'server', [declared, a, b]);
    const missing = async () => Promise.reject(new AppError('not_found', 'Nothing here.'));
    router.handle(declared, noGuard, missing);
    router.handle(a, noGuard, missing);
    // Codes every call may answer need no declaration.
    router.handle(b, noGuard, async () => Promise.reject(new AppError('invalid_input', 'Bad.')));
    router.complete();
    const reply = (name: string) => app.inject({ method: 'POST', url: `/test/${name}/`, payload: {} });
    expect((await reply('declared')).json()).toMatchObject({ code: 'not_found' });
    expect((await reply('a')).statusCode).toBe(500);
    expect((await reply('b')).json()).toMatchObject({ code: 'invalid_input' });
  });
});
