import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, type Reply, startHarness } from '../test/harness.ts';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = (await h.signIn('alex@northwind.example')).token.access;
});
afterAll(() => h?.close());

/** Security finding 7: text PostgreSQL cannot store is the caller's mistake, never a 500. */
function expectRefusedText(res: Reply) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe('invalid_input');
  expect(res.body.message_key).toBe('errors.invalid_text');
}

describe('text a database cannot store is refused with 400, before anything reads it', () => {
  test('a NUL byte in the unauthenticated sign-in call', async () => {
    expectRefusedText(await h.post('/api/v1/console/auth/login/', { email: 'alex\u0000@northwind.example' }));
    expectRefusedText(
      await h.post('/api/v1/console/auth/verify/password/', {
        email: 'alex@northwind.example',
        password: 'x\u0000',
        team_slug: 'northwind',
      }),
    );
  });

  test('a NUL byte deep in arrays and objects, and in a key', async () => {
    expectRefusedText(await h.post('/api/v1/team/info/', { a: [{ b: ['ok', 'no\u0000'] }] }, token));
    expectRefusedText(await h.post('/api/v1/team/info/', { 'k\u0000': 1 }, token));
  });

  test('a lone surrogate (not Unicode at all) anywhere', async () => {
    expectRefusedText(await h.post('/api/v1/console/auth/login/', { email: '\ud800@northwind.example' }));
    // Built by hand: JSON.stringify would escape it the same way, but say it plainly.
    const res = await fetch(`${h.url}/api/v1/console/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"a\\udc00b@northwind.example"}',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message_key: string }).message_key).toBe('errors.invalid_text');
  });

  test('in a query string and in a form body', async () => {
    const res = await fetch(`${h.url}/api/v1/server/health/status/?x=%00`);
    // The server does not answer the Hub's health call; it must still not fail on the query.
    expect(res.status).toBeLessThan(500);
    expectRefusedText(await h.postForm('/oauth/refresh/token/', { grant_type: 'refresh_token', refresh_token: 'a\u0000b' }));
  });

  test('every text field of a signed-in call, not only sign-in', async () => {
    expectRefusedText(
      await h.post('/api/v1/console/auth/change/password/', { old_password: 'a\u0000', new_password: 'b' }, token),
    );
  });

  test('an address the mail library reads as something else (found by the fuzzing) is refused, not mailed', async () => {
    // Quotes make nodemailer parse a different recipient than the one checked; the SMTP server then refused it: 500.
    for (const email of [
      '"|OMw@/o(5P.52.)J.6a707.o#\\LDN.1_n_=z\'cR.tgGdw2Opj.6l"Ne3WP.[,EN?aLz',
      'bob@example.com\u202e',
      'a,b@example.com',
    ]) {
      const res = await h.post('/api/v1/team/members/invite/', { emails: [email] }, token);
      expect(res.status, `${email}: ${res.text}`).toBe(400);
    }
  });
});
