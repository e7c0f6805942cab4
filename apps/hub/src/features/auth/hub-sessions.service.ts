import type { HubTokens, Scope } from '@latchkey/contracts';
import { AppError, accessTokens, type Db, type Queryable, refreshTokens } from '@latchkey/runtime';
import { recordHubEvents } from '../eventlogs/index.ts';
import { registrationsRepository } from '../registrations/index.ts';
import type { AuxGrant } from './aux-grant.ts';
import { type HubSessionRow, hubSessionsRepository as repo } from './hub-sessions.repository.ts';
import type { ServerCheck } from './server-check.ts';

interface HubSessionPolicy {
  accessTtlSeconds: number;
  refreshTtlMinutes: number;
  maxHours: number;
  /** How long a just-rotated refresh token is answered again with the same successor. */
  refreshGraceSeconds: number;
  hubVersion: string;
}

/** Keeps Hub access tokens apart from any other token signed with the same key. */
const ACCESS_AUDIENCE = 'latchkey-hub-access';

const refresh = refreshTokens('hub_refresh_tokens', 'The Hub session has ended. Sign in again.');
const invalidGrant = refresh.invalidGrant;
/** Why a session ends when one of its spent refresh tokens comes back after the grace window. */
const REUSE = 'refresh_token_reuse';
const sessionEnded = () => new AppError('token_expired', 'The Hub session has ended. Sign in again.', 401);
const serverUnreachable = () =>
  new AppError('server_unreachable', 'The Hub cannot reach the licence server to confirm the session. Try again shortly.').shows(
    'errors.hub_cannot_reach_server',
  );

/**
 * Hub sessions: short-lived access tokens signed with the Hub's own key, and opaque refresh
 * tokens that rotate on every use. A refresh token used twice means it leaked, so the whole
 * family (the session) is revoked and every token of it stops working, unless the second use
 * comes within the grace window of the first (runtime refresh-tokens.ts).
 */
export function createHubSessionsService(db: Db, secret: string, policy: HubSessionPolicy, checkWithServer: ServerCheck) {
  const accessToken = accessTokens(secret, ACCESS_AUDIENCE);

  async function tokens(
    session: Pick<HubSessionRow, 'id' | 'user_id' | 'absolute_expires_at'>,
    q: Queryable,
  ): Promise<HubTokens> {
    const now = Date.now();
    const expiresAt = Math.min(now + policy.accessTtlSeconds * 1000, session.absolute_expires_at.getTime());
    const refreshExpiresAt = Math.min(now + policy.refreshTtlMinutes * 60_000, session.absolute_expires_at.getTime());
    const access = accessToken.sign({ sub: session.user_id, sid: session.id }, expiresAt);
    return {
      access,
      refresh: await refresh.issue(q, session.id, new Date(refreshExpiresAt)),
      expires_at: expiresAt,
      refresh_expires_at: refreshExpiresAt,
      hub_version: policy.hubVersion,
    };
  }

  /**
   * A refresh happens at least once per access-token lifetime, so asking the server here bounds
   * how long an ended console session (a lost push) keeps its Hub session. Fail closed: without an
   * answer the refresh is refused (the refresh token stays unspent, so a later retry works).
   */
  async function recheck(session: HubSessionRow): Promise<HubSessionRow> {
    const registration = await registrationsRepository.findById(db, session.registration_id);
    if (!session.console_sid || !registration) throw invalidGrant();
    const verdict = await checkWithServer(registration, { ...session, console_sid: session.console_sid });
    if (verdict === 'unreachable') throw serverUnreachable();
    if (!verdict.live || verdict.scopes.length === 0) {
      await repo.revoke(db, session.id, 'console_session_ended');
      throw invalidGrant();
    }
    const absolute = verdict.absolute_expires_at === null ? null : new Date(verdict.absolute_expires_at);
    await repo.follow(db, session.id, verdict.scopes, verdict.scope_expiry ?? {}, absolute, verdict);
    const followed = await repo.find(db, session.id);
    if (!isLive(followed)) throw invalidGrant();
    return followed;
  }

  return {
    /** Starts a session for the console user a verified aux grant names. */
    async start(grant: AuxGrant, device: unknown): Promise<HubTokens> {
      // Never longer than the console session it came from: chaining cannot extend a sign-in.
      const absolute = new Date(Math.min(Date.now() + policy.maxHours * 3_600_000, grant.session_exp * 1000));
      return db.transaction(async (tx) => {
        const id = await repo.create(tx, {
          registrationId: grant.registration.id,
          userId: grant.sub,
          email: grant.email,
          teamSlug: grant.team_slug,
          scopes: grant.scopes,
          scopeExpiry: grant.scope_expiry ?? {},
          device,
          absoluteExpiresAt: absolute,
          consoleSid: grant.sid,
          plan: grant,
        });
        return tokens({ id, user_id: grant.sub, absolute_expires_at: absolute }, tx);
      });
    },

    async rotate(refreshToken: string): Promise<HubTokens> {
      return refresh.rotate<HubSessionRow, HubTokens>(db, refreshToken, policy.refreshGraceSeconds, {
        find: (id) => repo.find(db, id),
        isLive,
        beforeSpend: recheck,
        mint: tokens,
        onReuse: (s) =>
          db.transaction(async (tx) => {
            await repo.revoke(tx, s.id, REUSE);
            // A leaked refresh token: the team's event log names whose session ended, and why.
            await recordHubEvents(tx, s.team_slug, [
              {
                actor: s.email,
                actor_type: 'admin',
                activity: 'auth.session_revoked',
                component: 'auth',
                outcome: 'failure',
                detail: { reason: REUSE },
              },
            ]);
          }),
      });
    },

    /** The server's push: console sessions ended, so the Hub sessions they opened end now. */
    revokeFromServer(teamSlug: string, match: { sessionIds: string[]; userId: string | null }): Promise<number> {
      return repo.revokeMatching(db, teamSlug, match, 'console_session_ended');
    },

    /** The server's push of an admin's scopes now: their live sessions lose any scope not among them. */
    narrowFromServer(teamSlug: string, email: string, scopes: readonly Scope[]): Promise<number> {
      return repo.narrow(db, teamSlug, email, scopes);
    },

    /** The live session an access token belongs to; anything else is an ended session. */
    async authenticate(token: string): Promise<HubSessionRow> {
      const payload = accessToken.verify(token);
      if (!payload) throw new AppError('token_expired', 'The access token is invalid or expired.', 401);
      const session = await repo.find(db, payload.sid);
      if (!isLive(session)) throw sessionEnded();
      return session;
    },
  };
}
export type HubSessionsService = ReturnType<typeof createHubSessionsService>;

function isLive(session: HubSessionRow | undefined): session is HubSessionRow {
  return Boolean(session && !session.revoked_at && session.absolute_expires_at.getTime() > Date.now());
}
