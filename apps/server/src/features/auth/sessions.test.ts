import { TokenPair } from '@latchkey/contracts';
import { hashToken } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

const INFO = '/api/v1/team/info/';
const REFRESH = '/oauth/refresh/token/';
const SIGNOUT = '/api/v1/user/signout/';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const refresh = (refresh_token: string) => h.postForm<TokenPair>(REFRESH, { grant_type: 'refresh_token', refresh_token });
/** Moves a spent refresh token's rotation to just past the grace window (the database's clock decides it). */
const pastGrace = (refresh_token: string) =>
  h.db.query(`update refresh_tokens set used_at = now() - $2::double precision * interval '1 second' where token_hash = $1`, [
    hashToken(refresh_token),
    h.config.REFRESH_GRACE_SECONDS + 1,
  ]);
const sessionIdOf = (access: string): string => JSON.parse(Buffer.from(access.split('.')[1] ?? '', 'base64url').toString()).sid;

describe('access tokens', () => {
  test('an access token opens a session call', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.superAdmin);
    const res = await h.post(INFO, {}, token.access);
    expect(res.status).toBe(200);
    expect(res.body.team_slug).toBe('northwind');
  });

  test('no bearer, a garbage bearer, or another scheme is 401', async () => {
    const none = await h.post(INFO, {});
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ code: 'unauthorized', description: 'Authentication required.' });
    const garbage = await h.post(INFO, {}, 'not.a.jwt');
    expect(garbage.status).toBe(401);
    expect(garbage.body.code).toBe('token_expired');
    const basic = await fetch(h.url + INFO, { method: 'POST', headers: { authorization: 'Basic abc' } });
    expect(basic.status).toBe(401);
  });

  test('a token signed with another key is 401', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.admin);
    const [header, payload] = token.access.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect((await h.post(INFO, {}, forged)).status).toBe(401);
  });

  test('an access token works until its expiry and is 401 token_expired from then on', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.admin);
    const ttlMs = h.config.ACCESS_TOKEN_TTL_SECONDS * 1000;
    const issued = Date.now();
    // Only Date is faked: the server runs in this process, so its clock is the one moved here,
    // while sockets and timers keep real time.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(issued + ttlMs - 5_000);
      expect((await h.post(INFO, {}, token.access)).status).toBe(200);
      vi.setSystemTime(issued + ttlMs + 1_000);
      const late = await h.post(INFO, {}, token.access);
      expect(late.status).toBe(401);
      expect(late.body.code).toBe('token_expired');
    } finally {
      vi.useRealTimers();
    }
    // Back on the real clock the very same token is good again: the refusal above was its expiry.
    expect((await h.post(INFO, {}, token.access)).status).toBe(200);
  });

  test('an access token with its expiry edited is 401: the signature covers the claims', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.admin);
    // Same signature, claims edited: the signature check must refuse it.
    const [header, payload, signature] = token.access.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const stale = Buffer.from(JSON.stringify({ ...claims, exp: 1 })).toString('base64url');
    expect((await h.post(INFO, {}, `${header}.${stale}.${signature}`)).status).toBe(401);
  });
});

describe('refresh', () => {
  test('rotates: a new pair; the old refresh token answers that same pair within the grace window, and is refused after it', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.superAdmin);
    const res = await refresh(token.refresh_token);
    expect(res.status).toBe(200);
    const next = TokenPair.parse(res.body);
    expect(next.refresh_token).not.toBe(token.refresh_token);
    expect((await h.post(INFO, {}, next.access)).status).toBe(200);

    // A second tab, or the page reloaded during the renewal, sends the old token again: same answer.
    const again = await refresh(token.refresh_token);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);

    await pastGrace(token.refresh_token);
    const reused = await refresh(token.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ code: 'invalid_grant', description: 'The session has ended. Sign in again.' });
  });

  test('a JSON body works as well as a form', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.superAdmin);
    const res = await h.post(REFRESH, { grant_type: 'refresh_token', refresh_token: token.refresh_token });
    expect(res.status).toBe(200);
    expect(TokenPair.safeParse(res.body).success).toBe(true);
  });

  test('replaying an older spent refresh token revokes the whole session, even within the grace window', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.integrator);
    const second = TokenPair.parse((await refresh(token.refresh_token)).body);
    const third = TokenPair.parse((await refresh(second.refresh_token)).body);
    expect((await h.post(INFO, {}, third.access)).status).toBe(200);

    // An attacker replays the first token: the family is revoked.
    expect((await refresh(token.refresh_token)).status).toBe(400);
    expect((await refresh(third.refresh_token)).status).toBe(400);
    const info = await h.post(INFO, {}, third.access);
    expect(info.status).toBe(401);
    expect(info.body.code).toBe('token_expired');

    const [session] = await h.db.query<{ revoked_reason: string }>('select revoked_reason from sessions where id = $1', [
      sessionIdOf(third.access),
    ]);
    expect(session?.revoked_reason).toBe('refresh_token_reuse');
  });

  test('two renewals with one token at once get the same successor, and the session lives on', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.recoveryAgent);
    const replies = await Promise.all([refresh(token.refresh_token), refresh(token.refresh_token), refresh(token.refresh_token)]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    const [first] = replies;
    for (const reply of replies) expect(reply.body).toEqual(first?.body);
    const successor = TokenPair.parse(first?.body);
    expect((await h.post(INFO, {}, successor.access)).status).toBe(200);
    // One successor was minted, and it rotates as any other.
    const [{ n } = { n: 0 }] = await h.db.query<{ n: number }>(
      'select count(*)::int as n from refresh_tokens where session_id = $1',
      [sessionIdOf(successor.access)],
    );
    expect(n).toBe(2);
    const third = await refresh(successor.refresh_token);
    expect(third.status).toBe(200);
    expect((await h.post(INFO, {}, TokenPair.parse(third.body).access)).status).toBe(200);
  });

  test('a replay of the spent token after the grace window ends the session: every token of it stops working', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.integrator);
    const next = TokenPair.parse((await refresh(token.refresh_token)).body);
    await pastGrace(token.refresh_token);
    expect((await refresh(token.refresh_token)).status).toBe(400);
    expect((await refresh(next.refresh_token)).status).toBe(400);
    const info = await h.post(INFO, {}, next.access);
    expect(info.status).toBe(401);
    expect(info.body.code).toBe('token_expired');
  });

  test('the revocation for reuse is an event naming the admin and why, a failure in the event log', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.admin);
    const sid = sessionIdOf(token.access);
    await refresh(token.refresh_token);
    await pastGrace(token.refresh_token);
    expect((await refresh(token.refresh_token)).status).toBe(400);

    const [session] = await h.db.query<{ revoked_reason: string }>('select revoked_reason from sessions where id = $1', [sid]);
    expect(session?.revoked_reason).toBe('refresh_token_reuse');
    const [security] = await h.db.query<{ email: string | null; detail: { reason: string } }>(
      "select email, detail from security_events where kind = 'session_revoked' order by id desc limit 1",
    );
    expect(security).toEqual({ email: DEMO_ADMINS.admin, detail: { reason: 'refresh_token_reuse' } });
    // The team's event log (sent on to its Hub) says the same: who, what, why.
    const logged = await h.db.query<{ event: { actor: string; outcome: string; component: string; detail: { reason: string } } }>(
      "select event from event_outbox where event->>'activity' = 'auth.session_revoked' order by seq desc limit 1",
    );
    expect(logged[0]?.event).toMatchObject({
      actor: DEMO_ADMINS.admin,
      actor_type: 'admin',
      component: 'auth',
      outcome: 'failure',
      detail: { reason: 'refresh_token_reuse' },
    });
  });

  test('other sessions of the same person are untouched by a revocation', async () => {
    const a = await h.signIn(DEMO_ADMINS.admin);
    const b = await h.signIn(DEMO_ADMINS.admin);
    await refresh(a.token.refresh_token);
    await pastGrace(a.token.refresh_token);
    await refresh(a.token.refresh_token);
    expect((await h.post(INFO, {}, a.token.access)).status).toBe(401);
    expect((await h.post(INFO, {}, b.token.access)).status).toBe(200);
    expect((await refresh(b.token.refresh_token)).status).toBe(200);
  });

  test('an unknown refresh token, a wrong grant type, or none at all is refused', async () => {
    expect((await refresh('no-such-token')).status).toBe(400);
    const grant = await h.postForm(REFRESH, { grant_type: 'password', refresh_token: 'x' });
    expect(grant.status).toBe(400);
    expect(grant.body.code).toBe('invalid_input');
    const missing = await h.postForm(REFRESH, { grant_type: 'refresh_token' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('invalid_input');
  });

  test('an expired refresh token is refused', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.superAdmin);
    await h.db.query(`update refresh_tokens set expires_at = now() - interval '1 second' where used_at is null`);
    expect((await refresh(token.refresh_token)).status).toBe(400);
  });

  test('a session past its absolute lifetime refreshes no more and its access token stops working', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.superAdmin);
    const [claims] = token.access
      .split('.')
      .slice(1, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    await h.db.query(`update sessions set absolute_expires_at = now() - interval '1 second' where id = $1`, [claims.sid]);
    expect((await h.post(INFO, {}, token.access)).status).toBe(401);
    expect((await refresh(token.refresh_token)).status).toBe(400);
  });
});

describe('signout', () => {
  test('ends the session: the access and refresh tokens stop working', async () => {
    const { token } = await h.signIn(DEMO_ADMINS.admin);
    const out = await h.post(SIGNOUT, {}, token.access);
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ code: 'signed_out' });
    expect((await h.post(INFO, {}, token.access)).status).toBe(401);
    expect((await refresh(token.refresh_token)).status).toBe(400);
    expect((await h.post(SIGNOUT, {}, token.access)).status).toBe(401);
    const [event] = await h.db.query<{ kind: string }>(
      'select kind from security_events where email = $1 order by id desc limit 1',
      [DEMO_ADMINS.admin],
    );
    expect(event?.kind).toBe('sign_out');
  });

  test('needs a session', async () => {
    expect((await h.post(SIGNOUT, {})).status).toBe(401);
  });
});
