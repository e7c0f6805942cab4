import type { Db, Queryable } from './db.ts';
import { AppError } from './errors.ts';
import { openSuccessor, sealSuccessor } from './refresh-successor.ts';
import { hashToken, randomToken } from './tokens.ts';

/** The tables that hold refresh tokens: the server's console sessions and the Hub's sessions. */
export type RefreshTable = 'refresh_tokens' | 'hub_refresh_tokens';

interface RefreshRow {
  session_id: string;
  expires_at: Date;
  used_at: Date | null;
  /** The answer of the rotation that spent this token, sealed for its holder (refresh-successor.ts). */
  successor: string | null;
  /** Spent less than the grace window ago, by the database's clock. */
  in_grace: boolean;
}

export interface RotationSteps<S, T> {
  /** The session a refresh token belongs to. */
  find(sessionId: string): Promise<S | undefined>;
  /** Not revoked and before its absolute end. */
  isLive(session: S | undefined): session is S;
  /** A token spent twice leaked: end the whole session (and say so where the program must). */
  onReuse(session: S): Promise<void>;
  /** Checks made before the token is spent (the Hub asks the server); may refuse or refresh the session. */
  beforeSpend?(session: S): Promise<S>;
  /** The successor tokens, minted in the transaction that spends the presented one. */
  mint(session: S, q: Queryable): Promise<T>;
}

/**
 * Opaque refresh tokens that rotate on every use, shared by the console's and the Hub's sessions so
 * the two cannot drift apart. Only a token's hash is stored. A refused token is RFC 6749's
 * `invalid_grant`; `message` is what the caller's users read.
 */
export function refreshTokens(table: RefreshTable, message: string) {
  const invalidGrant = () => new AppError('invalid_grant', message);

  const find = async (q: Queryable, hash: string, graceSeconds: number) =>
    (
      await q.query<RefreshRow>(
        `select session_id, expires_at, used_at, successor,
           coalesce(used_at > now() - $2::double precision * interval '1 second', false) as in_grace
         from ${table} where token_hash = $1`,
        [hash, graceSeconds],
      )
    )[0];

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
     * Spends a refresh token and answers its successor. Order matters: reuse is detected before
     * expiry (a stolen token ends the session even when late), and the token is spent last, so a
     * refusal by `beforeSpend` leaves it usable for a retry.
     *
     * The session's newest spent token, less than `graceSeconds` after its rotation, is answered again
     * with the same successor: one holder renewing twice at once (two tabs, a page left during a
     * renewal) is not a theft. FAPI 2.0 allows rotation only when a retry with the previous token
     * works; Auth0 calls this a reuse interval. Later, or for an older token, a second use ends the session.
     */
    async rotate<S, T>(db: Db, token: string, graceSeconds: number, steps: RotationSteps<S, T>): Promise<T> {
      const hash = hashToken(token);
      const replayOrEnd = async (row: RefreshRow | undefined, session: S): Promise<T> => {
        const replay = row?.in_grace && row.successor ? openSuccessor<T>(token, hash, row.successor) : null;
        if (replay) return replay;
        await steps.onReuse(session);
        throw invalidGrant();
      };

      const found = await find(db, hash, graceSeconds);
      if (!found) throw invalidGrant();
      const session = await steps.find(found.session_id);
      if (!steps.isLive(session)) throw invalidGrant();
      if (found.used_at) return replayOrEnd(found, session);
      if (found.expires_at.getTime() <= Date.now()) throw invalidGrant();
      const checked = steps.beforeSpend ? await steps.beforeSpend(session) : session;
      const minted = await db.transaction(async (tx) => {
        // On PostgreSQL a concurrent spend waits here for this one to commit, successor included.
        const spent = await tx.query(
          `update ${table} set used_at = now() where token_hash = $1 and used_at is null returning 1`,
          [hash],
        );
        if (spent.length !== 1) return null;
        const next = await steps.mint(checked, tx);
        // Only the newest rotation may be answered again: older sealed successors go.
        await tx.query(
          `update ${table} set successor = case when token_hash = $1 then $2 end
           where session_id = $3 and (token_hash = $1 or successor is not null)`,
          [hash, sealSuccessor(token, hash, next), found.session_id],
        );
        return { next };
      });
      if (minted) return minted.next;
      // Another request spent it first: the same holder twice at once, or two holders.
      return replayOrEnd(await find(db, hash, graceSeconds), session);
    },
  };
}
