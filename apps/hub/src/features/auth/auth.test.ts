import { generateKeyPairSync } from 'node:crypto';
import type { HubTokens } from '@latchkey/contracts';
import { type Db, hashToken, publicJwkOf } from '@latchkey/runtime';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CREDENTIAL,
  consoleSessions,
  createHubDb,
  postSigned,
  type RunningHub,
  signGrant,
  startHub,
  TEAM,
} from '../../testing/hub-fixture.ts';

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

const exchange = (grant: string, teamSlug = TEAM, target = hub) =>
  target.post('/auth/token/', { team_slug: teamSlug, device: { browser: 'Chromium' } }, { authorization: `Bearer ${grant}` });
const refresh = (token: string) => hub.post('/auth/token/refresh/', { refresh: token });
/** The Hub's grace window for a just-rotated refresh token (REFRESH_GRACE_SECONDS, default). */
const GRACE_SECONDS = 10;
/** Moves a spent refresh token's rotation to just past the grace window (the database's clock decides it). */
const pastGrace = (token: string) =>
  db.query(`update hub_refresh_tokens set used_at = now() - $2::double precision * interval '1 second' where token_hash = $1`, [
    hashToken(token),
    GRACE_SECONDS + 1,
  ]);
const whoami = (access: string, teamSlug = TEAM) =>
  hub.post('/api/v1/session/', { team_slug: teamSlug }, { authorization: `Bearer ${access}` });

async function signIn(): Promise<HubTokens> {
  const res = await exchange(await signGrant());
  expect(res.status).toBe(200);
  return (await res.json()) as HubTokens;
}

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(await res.json()).toMatchObject({ code, description: expect.any(String) });
}

describe('token exchange', () => {
  it('turns a valid aux grant into Hub tokens', async () => {
    const before = Date.now();
    const tokens = await signIn();
    expect(tokens.access.split('.')).toHaveLength(3);
    expect(tokens.refresh.length).toBeGreaterThanOrEqual(40);
    expect(tokens.hub_version).toBe('2.2.0');
    expect(tokens.expires_at).toBeGreaterThanOrEqual(before + 300_000 - 1000);
    expect(tokens.expires_at).toBeLessThanOrEqual(Date.now() + 300_000);
    expect(tokens.refresh_expires_at).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    // Only the hash of a refresh token is kept.
    const stored = await db.query<{ token_hash: string }>('select token_hash from hub_refresh_tokens');
    expect(stored.map((r) => r.token_hash)).toContain(hashToken(tokens.refresh));
    expect(stored.map((r) => r.token_hash)).not.toContain(tokens.refresh);
  });

  it('reports the configured version in the tokens of an older Hub', async () => {
    const oldHub = await startHub(db, { HUB_VERSION: '1.0' });
    try {
      const res = await exchange(await signGrant(), TEAM, oldHub);
      expect(((await res.json()) as HubTokens).hub_version).toBe('1.0');
    } finally {
      await oldHub.app.close();
    }
  });

  it('refuses an expired grant with token_expired', async () => {
    await expectError(await exchange(await signGrant({ exp: Math.floor(Date.now() / 1000) - 5 })), 401, 'token_expired');
  });

  it('refuses a grant signed with another Ed25519 key', async () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    await expectError(await exchange(await signGrant({ key: other })), 401, 'unauthorized');
  });

  it('an integrator cannot mint a grant: HS256 with a credential secret and alg none are refused', async () => {
    // What an integrator could do before: sign with the credential secret shown to her.
    const claims = {
      email: 'alex@northwind.example',
      team_slug: TEAM,
      scopes: ['super_admin'],
      sid: 'forged',
      session_exp: Math.floor(Date.now() / 1000) + 3600,
    };
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: CREDENTIAL, typ: 'latchkey-grant+jwt' })
      .setSubject('5b0c8f5e-2d2a-4a51-9d1e-0d6f1f0a7a11')
      .setJti(crypto.randomUUID())
      .setAudience('latchkey-hub')
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(new TextEncoder().encode('shared-secret-of-northwind-and-the-licence-server'));
    await expectError(await exchange(hs), 401, 'unauthorized');
    const none = new UnsecuredJWT({ ...claims, jti: crypto.randomUUID() })
      .setSubject('5b0c8f5e-2d2a-4a51-9d1e-0d6f1f0a7a11')
      .setAudience('latchkey-hub')
      .setIssuedAt()
      .setExpirationTime('60s')
      .encode();
    await expectError(await exchange(none), 401, 'unauthorized');
    // A real grant with its payload swapped for more scopes: the signature no longer holds.
    const real = await signGrant({ scopes: ['integrator'] });
    const [h, p, sig] = real.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const widened = Buffer.from(JSON.stringify({ ...payload, scopes: ['super_admin'] })).toString('base64url');
    await expectError(await exchange(`${h}.${widened}.${sig}`), 401, 'unauthorized');
    expect(await db.query("select 1 from hub_sessions where 'super_admin' = any(scopes) and console_sid = 'forged'")).toEqual([]);
  });

  it("ends with the console session's absolute expiry, never later", async () => {
    const sessionExp = Math.floor(Date.now() / 1000) + 120;
    const res = await exchange(await signGrant({ sessionExp }));
    const tokens = (await res.json()) as HubTokens;
    expect(tokens.refresh_expires_at).toBeLessThanOrEqual(sessionExp * 1000);
    expect(tokens.expires_at).toBeLessThanOrEqual(sessionExp * 1000);
    const [row] = await db.query<{ absolute_expires_at: Date }>(
      'select absolute_expires_at from hub_sessions s join hub_refresh_tokens r on r.session_id = s.id where r.token_hash = $1',
      [hashToken(tokens.refresh)],
    );
    expect(row?.absolute_expires_at.getTime()).toBe(sessionExp * 1000);
    // A refresh chain cannot extend it either.
    const next = (await (await refresh(tokens.refresh)).json()) as HubTokens;
    expect(next.refresh_expires_at).toBeLessThanOrEqual(sessionExp * 1000);
  });

  it('exchanges a grant once: a replayed grant is refused', async () => {
    const grant = await signGrant();
    expect((await exchange(grant)).status).toBe(200);
    await expectError(await exchange(grant), 401, 'unauthorized');
    // A grant without a jti cannot be tracked, so it is not accepted at all.
    const untracked = await signGrant({ jti: '' });
    await expectError(await exchange(untracked), 401, 'unauthorized');
  });

  it('refuses a grant for another audience', async () => {
    await expectError(await exchange(await signGrant({ audience: 'latchkey-console' })), 401, 'unauthorized');
  });

  it('refuses a credential it does not know with hub_not_registered', async () => {
    await expectError(await exchange(await signGrant({ kid: 'cred-unknown' })), 403, 'hub_not_registered');
  });

  it('refuses a grant for a team other than the one the console names', async () => {
    await expectError(await exchange(await signGrant(), 'contoso'), 403, 'forbidden');
  });

  it("refuses a grant whose team is not the registration's, even with the right secret", async () => {
    await expectError(await exchange(await signGrant({ teamSlug: 'contoso' }), 'contoso'), 401, 'unauthorized');
  });

  it('refuses a call without a grant or with garbage', async () => {
    await expectError(await hub.post('/auth/token/', { team_slug: TEAM }), 401, 'unauthorized');
    await expectError(await exchange('not-a-jwt'), 401, 'unauthorized');
  });
});

describe('refresh', () => {
  it('rotates: new tokens, and the new access token works', async () => {
    const first = await signIn();
    const res = await refresh(first.refresh);
    expect(res.status).toBe(200);
    const second = (await res.json()) as HubTokens;
    expect(second.refresh).not.toBe(first.refresh);
    expect(second.hub_version).toBe('2.2.0');
    expect((await whoami(second.access)).status).toBe(200);
  });

  it('answers the just-rotated token again with the same tokens within the grace window', async () => {
    const first = await signIn();
    const res = await refresh(first.refresh);
    const second = await res.json();
    const again = await refresh(first.refresh);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(second);
    expect((await whoami((second as HubTokens).access)).status).toBe(200);
  });

  it('two renewals with one token at once get the same successor, and the session lives on', async () => {
    const first = await signIn();
    const replies = await Promise.all([refresh(first.refresh), refresh(first.refresh), refresh(first.refresh)]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    const [a, b, c] = (await Promise.all(replies.map((r) => r.json()))) as HubTokens[];
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect((await whoami((a as HubTokens).access)).status).toBe(200);
    const next = await refresh((a as HubTokens).refresh);
    expect(next.status).toBe(200);
    expect((await whoami(((await next.json()) as HubTokens).access)).status).toBe(200);
  });

  it('revokes the whole family when a rotated token is reused after the grace window', async () => {
    const first = await signIn();
    const second = (await (await refresh(first.refresh)).json()) as HubTokens;
    await pastGrace(first.refresh);
    await expectError(await refresh(first.refresh), 400, 'invalid_grant');
    // The thief and the user are indistinguishable now: every token of the session is dead.
    await expectError(await refresh(second.refresh), 400, 'invalid_grant');
    await expectError(await whoami(second.access), 401, 'token_expired');
    await expectError(await whoami(first.access), 401, 'token_expired');
  });

  it('revokes the family when an older spent token comes back, even within the grace window', async () => {
    const first = await signIn();
    const second = (await (await refresh(first.refresh)).json()) as HubTokens;
    const third = (await (await refresh(second.refresh)).json()) as HubTokens;
    await expectError(await refresh(first.refresh), 400, 'invalid_grant');
    await expectError(await whoami(third.access), 401, 'token_expired');
  });

  it("records the revocation for reuse in the team's event log: the admin, and why", async () => {
    const first = await signIn();
    await refresh(first.refresh);
    await pastGrace(first.refresh);
    await expectError(await refresh(first.refresh), 400, 'invalid_grant');
    const [event] = await db.query<Record<string, unknown>>(
      `select actor, actor_type, component, outcome, detail from event_log
       where team_slug = $1 and activity = 'auth.session_revoked' order by seq desc limit 1`,
      [TEAM],
    );
    expect(event).toEqual({
      actor: 'alex@northwind.example',
      actor_type: 'admin',
      component: 'auth',
      outcome: 'failure',
      detail: { reason: 'refresh_token_reuse' },
    });
  });

  it('leaves other sessions alone when one family is revoked', async () => {
    const mine = await signIn();
    const other = await signIn();
    await refresh(other.refresh);
    await pastGrace(other.refresh);
    await refresh(other.refresh);
    await expectError(await whoami(other.access), 401, 'token_expired');
    expect((await whoami(mine.access)).status).toBe(200);
    expect((await refresh(mine.refresh)).status).toBe(200);
  });

  it('refuses an unknown refresh token', async () => {
    await expectError(await refresh('never-issued'), 400, 'invalid_grant');
  });

  it('refuses an expired refresh token', async () => {
    const tokens = await signIn();
    await db.query("update hub_refresh_tokens set expires_at = now() - interval '1 second' where token_hash = $1", [
      hashToken(tokens.refresh),
    ]);
    await expectError(await refresh(tokens.refresh), 400, 'invalid_grant');
  });
});

describe('whoami', () => {
  it('names the console user of a Hub access token', async () => {
    const tokens = await signIn();
    const res = await whoami(tokens.access);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ email: 'alex@northwind.example', team_slug: TEAM, scopes: ['super_admin'] });
  });

  it('refuses a token used for another team', async () => {
    const tokens = await signIn();
    await expectError(await whoami(tokens.access, 'contoso'), 403, 'forbidden');
  });

  it('refuses a call without a token, and an aux grant used as an access token', async () => {
    await expectError(await hub.post('/api/v1/session/', { team_slug: TEAM }), 401, 'unauthorized');
    await expectError(await whoami(await signGrant()), 401, 'token_expired');
  });

  it('ends the sessions of a registration when it is removed', async () => {
    const acme = generateKeyPairSync('ed25519').privateKey;
    await db.query(
      "insert into registrations (team_slug, credential_id, server_key, server_url) values ('acme', 'cred-acme', $1, 'http://127.0.0.1:9/')",
      [JSON.stringify(publicJwkOf(acme))],
    );
    const grant = await signGrant({ kid: 'cred-acme', teamSlug: 'acme', key: acme });
    const tokens = (await (await exchange(grant, 'acme')).json()) as HubTokens;
    expect((await whoami(tokens.access, 'acme')).status).toBe(200);
    await db.query("delete from registrations where credential_id = 'cred-acme'");
    await expectError(await whoami(tokens.access, 'acme'), 401, 'token_expired');
    await expectError(await refresh(tokens.refresh), 400, 'invalid_grant');
  });
});

describe('ending with the console session', () => {
  const signInAs = async (sid: string, scopes: ('super_admin' | 'recovery_agent')[] = ['super_admin']) => {
    const res = await exchange(await signGrant({ sid, scopes }));
    expect(res.status).toBe(200);
    return (await res.json()) as HubTokens;
  };
  const revoke = (body: Record<string, unknown>) =>
    postSigned(hub, '/api/v1/integrate/sessions/revoke/', { team_slug: TEAM, ...body });

  it("the server's push ends the Hub sessions of the ended console sessions at once", async () => {
    const mine = await signInAs('console-sid-push');
    const other = await signInAs('console-sid-other');
    const res = await revoke({ session_ids: ['console-sid-push'] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ revoked: 1 });
    await expectError(await whoami(mine.access), 401, 'token_expired');
    await expectError(await refresh(mine.refresh), 400, 'invalid_grant');
    expect((await whoami(other.access)).status).toBe(200);
  });

  it('the push by user ends every Hub session of that admin in the team', async () => {
    const a = await signInAs('console-sid-user-1');
    const res = await revoke({ user_id: '5b0c8f5e-2d2a-4a51-9d1e-0d6f1f0a7a11' });
    expect(res.status).toBe(200);
    await expectError(await whoami(a.access), 401, 'token_expired');
  });

  it('refuses an unsigned or forged push', async () => {
    const a = await signInAs('console-sid-forged-push');
    const forged = await postSigned(
      hub,
      '/api/v1/integrate/sessions/revoke/',
      { team_slug: TEAM, session_ids: ['console-sid-forged-push'] },
      { key: generateKeyPairSync('ed25519').privateKey },
    );
    expect(forged.status).toBe(401);
    expect((await hub.post('/api/v1/integrate/sessions/revoke/', { team_slug: TEAM, user_id: 'x' })).status).toBe(401);
    expect((await whoami(a.access)).status).toBe(200);
  });

  it('a lost push: the next refresh asks the server and is refused', async () => {
    const tokens = await signInAs('console-sid-lost-push');
    consoleSessions.ended.add('console-sid-lost-push');
    await expectError(await refresh(tokens.refresh), 400, 'invalid_grant');
    await expectError(await whoami(tokens.access), 401, 'token_expired');
  });

  it('a refresh takes the scopes the server reports now', async () => {
    const tokens = await signInAs('console-sid-scopes');
    consoleSessions.scopes.set('console-sid-scopes', ['recovery_agent']);
    const next = (await (await refresh(tokens.refresh)).json()) as HubTokens;
    expect(await (await whoami(next.access)).json()).toMatchObject({ scopes: ['recovery_agent'] });
  });

  it('fails closed: with the server unreachable the refresh is refused, and works again once it answers', async () => {
    const tokens = await signInAs('console-sid-down');
    consoleSessions.down = true;
    try {
      await expectError(await refresh(tokens.refresh), 503, 'server_unreachable');
    } finally {
      consoleSessions.down = false;
    }
    expect((await refresh(tokens.refresh)).status).toBe(200);
  });
});
