import type { Queryable } from './db.ts';
import { AppError } from './errors.ts';
import { hashToken, randomToken } from './tokens.ts';

/** The tables that hold refresh tokens: the server's console sessions and the Hub's sessions. */
export type RefreshTable = 'refresh_tokens' | 'hub_refresh_tokens';

interface RefreshRow {
  session_id: string;
  expires_at: Date;
  used_at: Date | null;
}

export interface RotationSteps<S> {
  /** The session a refresh token belongs to. */
  find(sessionId: string): Promise<S | undefined>;
  /** Not revoked and before its absolute end. */
  isLive(session: S | undefined): session is S;
  /** A token spent twice leaked: end the whole session (and say so where the program must). */
  onReuse(session: S): Promise<void>;
  /** Checks made before the token is spent (the Hub asks the server); may refuse or refresh the session. */
  beforeSpend?(session: S): Promise<S>;
}

/**
 * Opaque refresh tokens that rotate on every use, shared by the console's and the Hub's sessions so
 * the two cannot drift apart. Only a token's hash is stored. A refused token is RFC 6749's
 * `invalid_grant`; `message` is what the caller's users read.
 */
export function refreshTokens(table: RefreshTable, message: string) {
  const invalidGrant = () => new AppError('invalid_grant', message);
  return {
    invalidGrant,

    /** A new refresh token for the session, valid until `expiresAt`. */
    async issue(q: Queryable, sessionId: string, expiresAt: Date): Promise<string> {
      const token = randomToken();
      await q.query(`insert into ${table} (token_hash, session_id, expires_at) values ($1, $2, $3)`, [
        hashToken(token),
        sessionId,
        expiresAt,
      ]);
      return token;
    },

    /**
     * Spends a refresh token and answers its live session, for the caller to issue the next pair.
     * Order matters: reuse is detected before expiry (a stolen token ends the session even when
     * late), and the token is spent last, so a refusal by `beforeSpend` leaves it usable for a retry.
     */
    async spend<S>(q: Queryable, token: string, steps: RotationSteps<S>): Promise<S> {
      const hash = hashToken(token);
      const [found] = await q.query<RefreshRow>(`select session_id, expires_at, used_at from ${table} where token_hash = $1`, [
        hash,
      ]);
      if (!found) throw invalidGrant();
      const session = await steps.find(found.session_id);
      if (!steps.isLive(session)) throw invalidGrant();
      if (found.used_at) {
        await steps.onReuse(session);
        throw invalidGrant();
      }
      if (found.expires_at.getTime() <= Date.now()) throw invalidGrant();
      const checked = steps.beforeSpend ? await steps.beforeSpend(session) : session;
      const spent = await q.query(`update ${table} set used_at = now() where token_hash = $1 and used_at is null returning 1`, [
        hash,
      ]);
      // Another request spent it first: two holders of one token.
      if (spent.length !== 1) {
        await steps.onReuse(session);
        throw invalidGrant();
      }
      return checked;
    },
  };
}
