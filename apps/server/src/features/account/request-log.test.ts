// The server's own log, read as an operator would: every line of a request carries its id, and a
// whole sign-in (password, emailed code, tokens) leaves none of its secrets there.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../demo/index.ts';

const lines: string[] = [];
let h: Harness;
beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  h = await startHarness({ logStream, env: { LOG_LEVEL: 'info' } });
});
afterAll(async () => h?.close());

test('a sign-in leaves no password, code or token in the log; the request id is on its lines and in the reply', async () => {
  const signedIn = await h.signIn(DEMO_ADMINS.superAdmin);
  const tokens = signedIn.token;
  const info = await fetch(`${h.url}/api/v1/team/info/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.access}`, 'content-type': 'application/json', 'x-request-id': 'console-call-42' },
    body: '{}',
  });
  expect(info.status).toBe(200);
  expect(info.headers.get('x-request-id')).toBe('console-call-42');
  const refreshed = await h.postForm('/oauth/refresh/token/', {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token,
  });
  expect(refreshed.status).toBe(200);

  const mine = lines
    .map((l) => JSON.parse(l) as { request_id?: string; msg?: string })
    .filter((l) => l.request_id === 'console-call-42');
  expect(mine.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
  const renewed = (refreshed.body as { access?: unknown }).access;
  expect(typeof renewed).toBe('string');
  const text = lines.join('\n');
  for (const secret of [DEMO_PASSWORD, tokens.access, tokens.refresh_token, renewed as string])
    expect(text).not.toContain(secret);
});
