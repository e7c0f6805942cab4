import { createSecretKey } from 'node:crypto';
import type { HubTokens } from '@latchkey/contracts';
import { AppError, type Db, hashToken, type Queryable, randomToken } from '@latchkey/runtime';
import { jwtVerify, SignJWT } from 'jose';
import type { AuxGrant } from './aux-grant.ts';
import { type HubSessionRow, hubSessionsRepository as repo } from './hub-sessions.repository.ts';

export interface HubSessionPolicy {
  accessTtlSeconds: number;
  refreshTtlMinutes: number;
  maxHours: number;
  hubVersion: string;
}

/** Keeps Hub access tokens apart from any other token signed with the same key. */
const ACCESS_AUDIENCE = 'latchkey-hub-access';

// RFC 6749 §5.2: a bad refresh token is a 400 invalid_grant (the contracts' status for the code).
const invalidGrant = () => new AppError('invalid_grant', 'The Hub session has ended. Sign in again.');
const sessionEnded = () => new AppError('token_expired', 'The Hub session has ended. Sign in again.', 401);

/**
 * Hub sessions: short-lived access tokens signed with the Hub's own key, and opaque refresh
 * tokens that rotate on every use. A refresh token used twice means it leaked, so the whole
 * family (the session) is revoked and every token of it stops working.
 */
export function createHubSessionsService(db: Db, secret: string, policy: HubSessionPolicy) {
  // A KeyObject made once: jose would otherwise import the raw bytes again on every call.
  const key = createSecretKey(Buffer.from(secret));

  async function tokens(
    session: Pick<HubSessionRow, 'id' | 'user_id' | 'absolute_expires_at'>,
    q: Queryable,
  ): Promise<HubTokens> {
    const now = Date.now();
    const expiresAt = Math.min(now + policy.accessTtlSeconds * 1000, session.absolute_expires_at.getTime());
    const refreshExpiresAt = Math.min(now + policy.refreshTtlMinutes * 60_000, session.absolute_expires_at.getTime());
    const access = await new SignJWT({ sid: session.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(session.user_id)
      .setAudience(ACCESS_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt / 1000))
      .sign(key);
    const refresh = randomToken();
    await repo.addRefresh(q, hashToken(refresh), session.id, new Date(refreshExpiresAt));
    return { access, refresh, expires_at: expiresAt, refresh_expires_at: refreshExpiresAt, hub_version: policy.hubVersion };
  }

  return {
    /** Starts a session for the console user a verified aux grant names. */
    async start(grant: AuxGrant, device: unknown): Promise<HubTokens> {
      const absolute = new Date(Date.now() + policy.maxHours * 3_600_000);
      return db.transaction(async (tx) => {
        const id = await repo.create(tx, {
          registrationId: grant.registration.id,
          userId: grant.sub,
          email: grant.email,
          teamSlug: grant.team_slug,
          scopes: grant.scopes,
          device,
          absoluteExpiresAt: absolute,
        });
        return tokens({ id, user_id: grant.sub, absolute_expires_at: absolute }, tx);
      });
    },

    async rotate(refreshToken: string): Promise<HubTokens> {
      const hash = hashToken(refreshToken);
      const found = await repo.findRefresh(db, hash);
      if (!found) throw invalidGrant();
      const session = await repo.find(db, found.session_id);
      if (!isLive(session)) throw invalidGrant();
      if (found.used_at || !(await repo.useRefresh(db, hash))) {
        await repo.revoke(db, session.id, 'refresh_reuse');
        throw invalidGrant();
      }
      if (found.expires_at.getTime() <= Date.now()) throw invalidGrant();
      return tokens(session, db);
    },

    /** The live session an access token belongs to; anything else is an ended session. */
    async authenticate(accessToken: string): Promise<HubSessionRow> {
      let sessionId: unknown;
      try {
        const { payload } = await jwtVerify(accessToken, key, { algorithms: ['HS256'], audience: ACCESS_AUDIENCE });
        sessionId = payload.sid;
      } catch {
        throw new AppError('token_expired', 'The access token is invalid or expired.', 401);
      }
      if (typeof sessionId !== 'string') throw sessionEnded();
      const session = await repo.find(db, sessionId);
      if (!isLive(session)) throw sessionEnded();
      return session;
    },
  };
}
export type HubSessionsService = ReturnType<typeof createHubSessionsService>;

function isLive(session: HubSessionRow | undefined): session is HubSessionRow {
  return Boolean(session && !session.revoked_at && session.absolute_expires_at.getTime() > Date.now());
}
