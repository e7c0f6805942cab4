import { hashToken, type Queryable, randomToken } from '@latchkey/runtime';

/**
 * How long each kind of sign-in link works. The family app's and the SSO return's tokens are used
 * by the browser a moment after they are made: two minutes. An onboarding invitation waits in an
 * inbox: seven days, and it only proves the email (a code is still sent and asked for).
 */
export const LOGIN_TOKEN_MINUTES = { app_login: 2, sso: 2, onboarding: 7 * 24 * 60 } as const;
export type LoginTokenPurpose = keyof typeof LOGIN_TOKEN_MINUTES;

interface LoginTokenRow {
  user_id: string;
  team_id: string;
  /** The absolute end of the session the link was made from, which the new session inherits. */
  not_after: Date | null;
}

/** Single-use sign-in tokens (migration 0005); only their hashes are stored. */
export const loginTokensRepository = {
  /** Stores a new token for the admin and team; returns the token itself, to be sent once. */
  async issue(
    q: Queryable,
    purpose: LoginTokenPurpose,
    userId: string,
    teamId: string,
    notAfter: Date | null = null,
  ): Promise<string> {
    const token = randomToken(32);
    await q.query(
      `insert into login_tokens (token_hash, purpose, user_id, team_id, expires_at, not_after)
       values ($1, $2, $3, $4, now() + $5 * interval '1 minute', $6)`,
      [hashToken(token), purpose, userId, teamId, LOGIN_TOKEN_MINUTES[purpose], notAfter],
    );
    return token;
  },

  /** The live token's admin and team, without spending it (a page that only shows whose link it is). */
  async peek(q: Queryable, purpose: LoginTokenPurpose, token: string): Promise<LoginTokenRow | undefined> {
    const [row] = await q.query<LoginTokenRow>(
      `select user_id, team_id, not_after from login_tokens
       where token_hash = $1 and purpose = $2 and used_at is null and expires_at > now()`,
      [hashToken(token), purpose],
    );
    return row;
  },

  /** Spends a live token in one statement: of two requests with it, only one gets the row. */
  async spend(q: Queryable, purpose: LoginTokenPurpose, token: string): Promise<LoginTokenRow | undefined> {
    const [row] = await q.query<LoginTokenRow>(
      `update login_tokens set used_at = now()
       where token_hash = $1 and purpose = $2 and used_at is null and expires_at > now()
       returning user_id, team_id, not_after`,
      [hashToken(token), purpose],
    );
    return row;
  },

  /** Ends every open token of an admin (their sign-in was reset or they were removed). */
  async revokeAll(q: Queryable, userId: string): Promise<void> {
    await q.query('update login_tokens set used_at = now() where user_id = $1 and used_at is null', [userId]);
  },
};
