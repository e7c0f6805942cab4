import { ErrorReply, TokenPair } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_ADMINS, DEMO_PASSWORD } from '../features/demo/seed.ts';
import { type Harness, type Reply, startHarness } from '../test/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** Every error reply is the spec's shape and nothing more. */
function expectErrorShape(res: Reply, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.code).toBe(code);
  const keys = Object.keys(res.body).sort();
  expect(keys).toEqual(
    code === 'invalid_input' && 'issues' in res.body ? ['code', 'description', 'issues'] : ['code', 'description'],
  );
  expect(ErrorReply.strict().safeParse(res.body).success).toBe(true);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
}

const raw = async (path: string, init: RequestInit): Promise<Reply> => {
  const response = await fetch(h.url + path, { method: 'POST', ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
};

describe('unknown calls', () => {
  test('an unknown path is 404 not_found', async () => {
    expectErrorShape(await h.post('/api/v1/no/such/call/', {}), 404, 'not_found');
    expectErrorShape(await h.get('/nothing-here'), 404, 'not_found');
  });

  test('a known path with the wrong method is 404 not_found', async () => {
    expectErrorShape(await h.get('/api/v1/team/info/'), 404, 'not_found');
  });
});

describe('error shape', () => {
  test('bad bodies are invalid_input', async () => {
    expectErrorShape(
      await raw('/api/v1/console/auth/login/', { headers: { 'content-type': 'application/json' }, body: '{"email": ' }),
      400,
      'invalid_input',
    );
    expectErrorShape(
      await raw('/api/v1/console/auth/login/', { headers: { 'content-type': 'application/json' }, body: '' }),
      400,
      'invalid_input',
    );
    expectErrorShape(await h.post('/api/v1/console/auth/login/', { email: 42 }), 400, 'invalid_input');
    expectErrorShape(
      await h.post('/api/v1/console/auth/login/', { email: 'a@b.example', console_type: 'x' }),
      400,
      'invalid_input',
    );
  });

  test('an unsupported content type is refused in the same shape', async () => {
    const res = await raw('/api/v1/console/auth/login/', { headers: { 'content-type': 'application/xml' }, body: '<a/>' });
    expect(res.status).toBe(415);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'description']);
  });

  test('a failure inside the server is 500 internal_error and says nothing of its cause', async () => {
    await h.db.query('alter table email_codes rename to email_codes_away');
    try {
      const res = await h.post('/api/v1/console/auth/verify/password/', {
        email: DEMO_ADMINS.admin,
        password: DEMO_PASSWORD,
        team_slug: 'northwind',
      });
      expectErrorShape(res, 500, 'internal_error');
      expect(res.body.description).toBe('Something went wrong.');
      expect(res.text).not.toContain('email_codes');
    } finally {
      await h.db.query('alter table email_codes_away rename to email_codes');
    }
  });
});

describe('no secret appears in any reply', () => {
  test('passwords and tokens sent in failing calls are never echoed', async () => {
    const secret = 'S3cret-Sentinel-Value';
    const { token } = await h.signIn(DEMO_ADMINS.superAdmin);
    const used = TokenPair.parse(
      (await h.postForm('/oauth/refresh/token/', { grant_type: 'refresh_token', refresh_token: token.refresh_token })).body,
    );
    // Spent long enough ago that sending it again is refused (within the grace window it would answer `used`).
    await h.db.query(`update refresh_tokens set used_at = now() - interval '1 minute' where used_at is not null`);
    const replies: Reply[] = [
      await h.post('/api/v1/console/auth/verify/password/', {
        email: DEMO_ADMINS.admin,
        password: secret,
        team_slug: 'northwind',
      }),
      await h.post('/api/v1/console/auth/verify/password/', {
        email: 'nobody@x.example',
        password: secret,
        team_slug: 'northwind',
      }),
      await h.post('/api/v1/console/auth/verify/password/', {
        email: DEMO_ADMINS.admin,
        password: secret.repeat(60),
        team_slug: 'n',
      }),
      await h.post('/api/v1/console/auth/verify/password/', { email: secret, password: secret, team_slug: 'northwind' }),
      await h.post('/api/v1/console/auth/verify/otp/', {
        email: DEMO_ADMINS.admin,
        otp: '000000',
        password: secret,
        team_slug: 'northwind',
      }),
      await h.post('/api/v1/console/auth/verify/otp/', {
        email: DEMO_ADMINS.admin,
        otp: secret,
        password: secret,
        team_slug: 'n',
      }),
      await raw('/api/v1/console/auth/verify/password/', {
        headers: { 'content-type': 'application/json' },
        body: `{"email": "${DEMO_ADMINS.admin}", "password": "${secret}"`,
      }),
      await raw('/api/v1/console/auth/verify/password/', {
        headers: { 'content-type': 'application/json' },
        body: `{"password": ${secret}}`,
      }),
      await h.postForm('/oauth/refresh/token/', { grant_type: 'refresh_token', refresh_token: token.refresh_token }),
      await h.postForm('/oauth/refresh/token/', { grant_type: secret, refresh_token: used.refresh_token }),
      await h.postForm('/oauth/refresh/token/', { grant_type: 'refresh_token', refresh_token: used.refresh_token.repeat(7) }),
      await h.post('/api/v1/team/info/', {}, token.access),
      await h.post('/api/v1/team/info/', {}, `${used.access}x`),
      await h.post('/api/v1/team/info/', {}, secret),
    ];
    for (const res of replies) {
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(
        Object.keys(res.body).every((k) => ['code', 'description', 'issues'].includes(k)),
        res.text,
      ).toBe(true);
      for (const value of [secret, DEMO_PASSWORD, token.access, token.refresh_token, used.access, used.refresh_token]) {
        expect(res.text, res.text).not.toContain(value);
      }
    }
  });

  test('successful replies carry no password hash, Hub secret or code', async () => {
    const login = await h.post('/api/v1/console/auth/login/', { email: DEMO_ADMINS.integrator });
    const password = await h.post('/api/v1/console/auth/verify/password/', {
      email: DEMO_ADMINS.integrator,
      password: DEMO_PASSWORD,
      team_slug: 'northwind',
    });
    const code = await h.waitForCode(DEMO_ADMINS.integrator);
    const success = await h.post('/api/v1/console/auth/verify/otp/', {
      email: DEMO_ADMINS.integrator,
      otp: code,
      password: DEMO_PASSWORD,
      team_slug: 'northwind',
    });
    const access = TokenPair.parse((success.body as { token: unknown }).token).access;
    const replies = [login, password, success];
    for (const path of ['/api/v1/team/info/', '/api/v1/team/admin/info/', '/api/v1/team/all/', '/api/v1/aux/services/']) {
      replies.push(await h.post(path, {}, access));
    }
    const [hash] = await h.db.query<{ password_hash: string }>('select password_hash from users limit 1');
    for (const res of replies) {
      expect(res.status).toBe(200);
      for (const value of [DEMO_PASSWORD, 'PRIVATE KEY', '$argon2', hash?.password_hash ?? '?', 'password_hash', '"secret"']) {
        expect(res.text).not.toContain(value);
      }
    }
    expect(password.text).not.toContain(code);
  });
});

describe('rate limit', () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await startHarness({ seed: false, rateLimitPerMinute: 3 });
  });
  afterAll(() => limited?.close());

  test('past the limit, calls are 429 too_many_requests_msg', async () => {
    for (let i = 0; i < 3; i++)
      expect((await limited.post('/api/v1/console/auth/login/', { email: DEMO_ADMINS.admin })).status).toBe(404);
    // Health checks and the console's files are not calls and never count.
    for (let i = 0; i < 5; i++) expect((await limited.get('/healthz')).status).toBe(200);
    const res = await limited.post('/api/v1/console/auth/login/', { email: DEMO_ADMINS.admin });
    expectErrorShape(res, 429, 'too_many_requests_msg');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
