import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHttpApp } from './http.ts';
import { currentRequestId } from './request-id.ts';

const SECRETS = {
  bearer: 'eyJ-bearer-secret-0123456789',
  password: 'Correct-Horse-Battery-9',
  code: '482913',
  setupKey: 'lksk_setup-secret-abcdef',
  refresh: 'refresh-secret-zyxwvut',
  linkToken: 'link-token-secret-777',
};

let app: FastifyInstance;
let base: string;
const lines: string[] = [];
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  app = createHttpApp({ logLevel: 'info', checkReplies: false, logStream: stream });
  // A careless handler that logs everything it was given: the redaction must still hold.
  app.post('/echo', async (request) => {
    request.log.info({ req: { headers: request.headers }, body: request.body }, 'handler saw the input');
    request.log.info({ ...(request.body as object) }, 'handler logged the fields themselves');
    return { id: currentRequestId() ?? null };
  });
  app.get('/link', async () => ({ id: currentRequestId() ?? null }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => app?.close());

const post = (headers: Record<string, string>) =>
  fetch(`${base}/echo`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${SECRETS.bearer}`,
      cookie: `s=${SECRETS.refresh}`,
      ...headers,
    },
    body: JSON.stringify({
      email: 'alex@northwind.example',
      password: SECRETS.password,
      code: SECRETS.code,
      setup_key: SECRETS.setupKey,
      refresh_token: SECRETS.refresh,
    }),
  });

describe('request ids', () => {
  test('a sane X-Request-Id is kept: echoed, readable by the handler, on every log line of the request', async () => {
    const response = await post({ 'x-request-id': 'web-abc.123_XYZ' });
    expect(response.headers.get('x-request-id')).toBe('web-abc.123_XYZ');
    expect(await response.json()).toEqual({ id: 'web-abc.123_XYZ' });
    const mine = lines.map((l) => JSON.parse(l)).filter((l) => l.request_id === 'web-abc.123_XYZ');
    // incoming request, the two handler lines, request completed
    expect(mine.map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        'incoming request',
        'handler saw the input',
        'handler logged the fields themselves',
        'request completed',
      ]),
    );
  });

  test('an absent, too long or odd X-Request-Id is replaced by a generated one', async () => {
    for (const header of [undefined, 'x'.repeat(65), 'bad id', 'a"b', 'a/b']) {
      const response = await post(header === undefined ? {} : { 'x-request-id': header });
      const id = response.headers.get('x-request-id') ?? '';
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await response.json()).toEqual({ id });
    }
  });

  test('no bearer token, cookie, password, code, setup key or link token reaches the log', async () => {
    await post({ 'x-request-id': 'redaction-check' });
    await fetch(`${base}/link?token=${SECRETS.linkToken}&team=northwind`, { headers: { 'x-request-id': 'redaction-get' } });
    const text = lines.join('\n');
    expect(text).toContain('redaction-check');
    expect(text).toContain('redaction-get');
    expect(text).toContain('team=northwind');
    expect(text).toContain('alex@northwind.example');
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
  });
});
