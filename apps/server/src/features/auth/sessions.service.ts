import type { TokenPair } from '@latchkey/contracts';
import { AppError, accessTokens, type Db, refreshTokens } from '@latchkey/runtime';
import { recordSecurityEvent } from '../eventlogs/index.ts';
import { usersRepository } from '../users/index.ts';
import { sessionsRepository as repo, type SessionRow } from './sessions.repository.ts';

interface SessionPolicy {
  accessTtlSeconds: number;
  idleMinutes: number;
  maxHours: number;
  /** How long a just-rotated refresh token is answered again with the same successor. */
  refreshGraceSeconds: number;
}

interface AccessClaims {
  userId: string;
  sessionId: string;
}

const refresh = refreshTokens('refresh_tokens', 'The session has ended. Sign in again.');
const invalidGrant = refresh.invalidGrant;
/** Why a session ends when one of its spent refresh tokens comes back after the grace window. */
const REUSE = 'refresh_token_reuse';

/**
 * Console sessions: short-lived signed access tokens, and opaque refresh tokens that rotate on
 * every use. A refresh token used twice means it was stolen, so the whole session is revoked,
 * unless the second use comes within the grace window of the first (runtime refresh-tokens.ts).
 */
export function createSessionsService(
  db: Db,
  secret: string,
  policy: SessionPolicy,
  /** Told after a session is revoked here, so the Hub sessions it opened end too. */
  onEnded: (ended: { teamId?: string; sessionIds?: string[]; userId?: string }) => Promise<void> = async () => {},
) {
  const access = accessTokens(secret);

  async function tokens(
    sessionId: string,
    userId: string,
    absoluteExpiry: Date,
    q = db as Pick<Db, 'query'>,
  ): Promise<TokenPair> {
    const now = Date.now();
    const expiresAt = now + policy.accessTtlSeconds * 1000;
    const refreshExpiresAt = Math.min(now + policy.idleMinutes * 60_000, absoluteExpiry.getTime());
    const token = access.sign({ sub: userId, sid: sessionId }, expiresAt);
    const refreshToken = await refresh.issue(q, sessionId, new Date(refreshExpiresAt));
    return { access: token, refresh_token: refreshToken, expires_at: expiresAt, refresh_expires_at: refreshExpiresAt };
  }

  return {
    /**
     * A new session's tokens, its id and absolute expiry (which a Hub session it opens inherits). One
     * minted from another (`notAfter`, the parent's absolute end) ends no later than its parent, so
     * chaining sessions never extends a sign-in. `signInMethod` is kept with the session: requiring
     * SSO ends the sessions of admins held to it that were not signed in through SSO.
     */
    async start(
      userId: string,
      teamId: string,
      notAfter: Date | null = null,
      signInMethod: string | null = null,
    ): Promise<{ tokens: TokenPair; sessionId: string; absolute: Date }> {
      const fresh = Date.now() + policy.maxHours * 3_600_000;
      const absolute = new Date(notAfter ? Math.min(fresh, notAfter.getTime()) : fresh);
      if (absolute.getTime() <= Date.now()) throw invalidGrant();
      return db.transaction(async (tx) => {
        const sessionId = await repo.create(tx, userId, teamId, absolute, signInMethod);
        return { tokens: await tokens(sessionId, userId, absolute, tx), sessionId, absolute };
      });
    },

    async rotate(refreshToken: string): Promise<TokenPair> {
      return refresh.rotate(db, refreshToken, policy.refreshGraceSeconds, {
        find: (id) => repo.find(db, id),
        isLive: (s): s is SessionRow => Boolean(s && !s.revoked_at && s.absolute_expires_at.getTime() > Date.now()),
        mint: (s, q) => tokens(s.id, s.user_id, s.absolute_expires_at, q),
        async onReuse(s) {
          await repo.revoke(db, s.id, REUSE);
          await onEnded({ teamId: s.team_id, sessionIds: [s.id] });
          // A stolen refresh token: the event log names whose session ended, and why.
          const user = await usersRepository.findUserById(db, s.user_id);
          await recordSecurityEvent(db, {
            kind: 'session_revoked',
            email: user?.email,
            userId: s.user_id,
            teamId: s.team_id,
            outcome: 'failure',
            detail: { reason: REUSE },
          });
        },
      });
    },

    /** Verifies an access token's signature and expiry; the session itself is checked by the caller. */
    verifyAccess(token: string): AccessClaims {
      const payload = access.verify(token);
      if (!payload) throw new AppError('token_expired', 'The access token is invalid or expired.', 401);
      return { userId: payload.sub, sessionId: payload.sid };
    },

    /** The absolute end of a live session, for a session or link minted from it. */
    async absoluteEnd(sessionId: string): Promise<Date> {
      const session = await repo.find(db, sessionId);
      if (!session || session.revoked_at) throw invalidGrant();
      return session.absolute_expires_at;
    },

    async revoke(sessionId: string, reason: string): Promise<void> {
      await repo.revoke(db, sessionId, reason);
      await onEnded({ sessionIds: [sessionId] });
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
