import { AppError, type Queryable } from '@latchkey/runtime';

export interface LimitRule {
  /** Attempts allowed in one window; the next one is refused with 429. */
  max: number;
  windowMinutes: number;
}

/**
 * Brute-force limits (security finding 6). Each factor has three counters of failures:
 * - account + client: a few wrong answers from one client stop that client only, so an attacker's
 *   five wrong passwords never lock the real admin out of their own sign-in elsewhere;
 * - client (address): one address guessing at many accounts; ten times the pair limit because
 *   offices sign in from behind one NAT address;
 * - account: the ceiling of OWASP ASVS 2.2.1, at most 100 failed attempts per hour per account
 *   from everywhere together (this one, an attacker with many addresses can still reach).
 * Past `delayAfter` failures on an account, each further failure sets a per-account "not before"
 * that doubles (1 s, 2 s, 4 s … up to `maxDelaySeconds`); a client that has itself failed on that
 * account is answered 429 with Retry-After until then, while a client that has not failed goes
 * straight on. Nothing sleeps in a request.
 * - password: 5 per account and client per 15 min; 50 per address; 100 per account per hour.
 * - emailed code: each code takes 5 tries (then a new one must be sent); 10 per account and
 *   client per 15 min across codes; 50 per account per hour.
 * - authenticator code, backup code, security key: 5 per account and client per 15 min; 50 per
 *   account per hour (the password is already known to whoever gets this far).
 * - code mails: 5 unused ones per account and client per 15 min, 30 per account per hour, so the
 *   sign-in form cannot flood an inbox; a code that signs in gives its mail back.
 * - unknown emails: 20 per client per 15 min, so the email step cannot enumerate accounts.
 */
const perHour = (max: number): LimitRule => ({ max, windowMinutes: 60 });
const pair = (max: number): LimitRule => ({ max, windowMinutes: 15 });
const ip = (max: number): LimitRule => ({ max, windowMinutes: 15 });
export const LIMITS = {
  password: { pair: pair(5), ip: ip(50), account: perHour(100) },
  email_code: { pair: pair(10), ip: ip(100), account: perHour(50) },
  totp: { pair: pair(5), ip: ip(50), account: perHour(50) },
  backup_code: { pair: pair(5), ip: ip(50), account: perHour(50) },
  security_key: { pair: pair(5), ip: ip(50), account: perHour(50) },
  code_mail: { pair: pair(5), ip: ip(100), account: perHour(30) },
} as const satisfies Record<string, { pair: LimitRule; ip: LimitRule; account: LimitRule }>;
export type LimitKind = keyof typeof LIMITS;

/** Failures on one account, from every client, before the progressive delay starts. */
const DELAY_AFTER = 5;
const MAX_DELAY_SECONDS = 15 * 60;
/** Unknown emails one client may try at the email step. */
const UNKNOWN_EMAIL_LIMIT: LimitRule = { max: 20, windowMinutes: 15 };

/** Where the counters live: PostgreSQL or Redis, so every server instance shares them. */
export interface CounterStore {
  /** Counts one attempt; returns the attempts in the current window, this one included. */
  hit(key: string, rule: LimitRule): Promise<{ count: number; retryAfterSeconds: number }>;
  /** The attempts in the current window, without counting one. */
  peek(key: string): Promise<{ count: number; retryAfterSeconds: number }>;
  /** Takes back one counted attempt (it succeeded, so it was not a guess). */
  undo(key: string): Promise<void>;
  /** Sets a "not before" at least `seconds` from now (never shortens one). */
  hold(key: string, seconds: number): Promise<void>;
  /** Seconds until the key's "not before"; 0 when there is none. */
  heldFor(key: string): Promise<number>;
}

export function postgresCounters(q: Queryable): CounterStore {
  return {
    async hit(key, rule) {
      const [row] = await q.query<{ count: number; retry: number }>(
        `insert into auth_limits as l (key, count, window_ends_at) values ($1, 1, now() + $2 * interval '1 minute')
         on conflict (key) do update set
           count = case when l.window_ends_at <= now() then 1 else l.count + 1 end,
           window_ends_at = case when l.window_ends_at <= now() then excluded.window_ends_at else l.window_ends_at end
         returning count, ceil(extract(epoch from (window_ends_at - now())))::int as retry`,
        [key, rule.windowMinutes],
      );
      return { count: row?.count ?? 1, retryAfterSeconds: Math.max(1, row?.retry ?? 1) };
    },
    async peek(key) {
      const [row] = await q.query<{ count: number; retry: number }>(
        `select count, ceil(extract(epoch from (window_ends_at - now())))::int as retry
         from auth_limits where key = $1 and window_ends_at > now()`,
        [key],
      );
      return { count: row?.count ?? 0, retryAfterSeconds: Math.max(1, row?.retry ?? 1) };
    },
    async undo(key) {
      await q.query('update auth_limits set count = greatest(count - 1, 0) where key = $1', [key]);
    },
    // A hold is a row whose window end is the "not before" (its count is unused).
    async hold(key, seconds) {
      await q.query(
        `insert into auth_limits as l (key, count, window_ends_at) values ($1, 0, now() + $2 * interval '1 second')
         on conflict (key) do update set window_ends_at = greatest(l.window_ends_at, excluded.window_ends_at)`,
        [key, seconds],
      );
    },
    async heldFor(key) {
      const [row] = await q.query<{ s: number }>(
        `select ceil(extract(epoch from (window_ends_at - now())))::int as s from auth_limits
         where key = $1 and window_ends_at > now()`,
        [key],
      );
      return Math.max(0, row?.s ?? 0);
    },
  };
}

export class LimitReached extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    super('too_many_requests_msg', `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, 429);
  }
}

/**
 * Counts an attempt against the pair, client and account counters before it is checked; parallel
 * guesses therefore cannot all slip under the limit. A success gives its attempt back, so only
 * failures add up; a failure may start or lengthen the account's progressive delay. Throws
 * LimitReached (429 too_many_requests_msg, with Retry-After) when the attempt may not be made.
 */
export function createLimiter(store: CounterStore) {
  const keysOf = (kind: LimitKind, accountId: string, ip: string) => ({
    pair: `${kind}:pair:${accountId}:${ip}`,
    ip: `${kind}:ip:${ip}`,
    account: `${kind}:account:${accountId}`,
    delay: `${kind}:delay:${accountId}`,
  });
  return {
    async begin(kind: LimitKind, accountId: string, ip: string) {
      const keys = keysOf(kind, accountId, ip);
      const rules = LIMITS[kind];
      // The delay is for clients that have failed on this account; a fresh one goes straight on.
      if ((await store.peek(keys.pair)).count > 0) {
        const wait = await store.heldFor(keys.delay);
        if (wait > 0) throw new LimitReached(wait);
      }
      const counted = [keys.pair, keys.ip, keys.account] as const;
      const [p, i, a] = await Promise.all([
        store.hit(keys.pair, rules.pair),
        store.hit(keys.ip, rules.ip),
        store.hit(keys.account, rules.account),
      ]);
      const over = [
        [p, rules.pair],
        [i, rules.ip],
        [a, rules.account],
      ].find(([hit, rule]) => (hit as { count: number }).count > (rule as LimitRule).max);
      if (over) throw new LimitReached((over[0] as { retryAfterSeconds: number }).retryAfterSeconds);
      return {
        succeeded: async () => {
          await Promise.all(counted.map((key) => store.undo(key)));
        },
        failed: async () => {
          // A code mail is not a guess: its limits bound flooding; delaying it would only slow the admin.
          if (kind === 'code_mail') return;
          const beyond = a.count - DELAY_AFTER;
          if (beyond > 0) await store.hold(keys.delay, Math.min(2 ** (beyond - 1), MAX_DELAY_SECONDS));
        },
      };
    },

    /** Gives back one counted attempt later (a code mail that led to a sign-in was no abuse). */
    async giveBack(kind: LimitKind, accountId: string, ip: string) {
      const keys = keysOf(kind, accountId, ip);
      await Promise.all([store.undo(keys.pair), store.undo(keys.ip), store.undo(keys.account)]);
    },

    /** Before an email is looked up: refuses a client that has tried too many unknown ones. */
    async checkEmailProbe(ip: string) {
      const seen = await store.peek(`unknown_email:ip:${ip}`);
      if (seen.count >= UNKNOWN_EMAIL_LIMIT.max) throw new LimitReached(seen.retryAfterSeconds);
    },
    async unknownEmail(ip: string) {
      await store.hit(`unknown_email:ip:${ip}`, UNKNOWN_EMAIL_LIMIT);
    },
  };
}
export type Limiter = ReturnType<typeof createLimiter>;
