import { AppError, type Queryable } from '@latchkey/runtime';

export interface LimitRule {
  /** Attempts allowed in one window; the next one is refused with 429. */
  max: number;
  windowMinutes: number;
}

/**
 * Brute-force limits (issue 3). Each factor has a per-account and a per-address counter; an
 * account counter stops a slow guess at one admin from many addresses, an address counter stops
 * one address trying many admins. Address limits are ten times the account ones because offices
 * sign in from behind one NAT address.
 * - password: 5 wrong per account per 15 min, as the issue suggests (and as OWASP's ASVS 2.2.1
 *   allows); 50 per address.
 * - emailed code: each code takes 5 tries (then a new one must be sent); 10 wrong per account per
 *   15 min across codes, so resending cannot multiply the tries.
 * - authenticator code: 5 per account per 15 min. With ±1 step accepted, 5 tries have a
 *   1.5·10⁻⁵ chance; a full day of windows stays under 0.2 %.
 * - backup code: 5 per account per 15 min (codes are 50 bits: guessing is hopeless anyway).
 * - security key: 5 failed answers per account per 15 min (signatures cannot be guessed; this
 *   only bounds the work a broken client can cause).
 * - code mails: 5 unused ones per account per 15 min, so the sign-in form cannot flood an inbox; a
 *   code that signs in gives its mail back.
 */
export const LIMITS = {
  password: { account: { max: 5, windowMinutes: 15 }, ip: { max: 50, windowMinutes: 15 } },
  email_code: { account: { max: 10, windowMinutes: 15 }, ip: { max: 100, windowMinutes: 15 } },
  totp: { account: { max: 5, windowMinutes: 15 }, ip: { max: 50, windowMinutes: 15 } },
  backup_code: { account: { max: 5, windowMinutes: 15 }, ip: { max: 50, windowMinutes: 15 } },
  security_key: { account: { max: 5, windowMinutes: 15 }, ip: { max: 50, windowMinutes: 15 } },
  code_mail: { account: { max: 5, windowMinutes: 15 }, ip: { max: 100, windowMinutes: 15 } },
} as const satisfies Record<string, { account: LimitRule; ip: LimitRule }>;
export type LimitKind = keyof typeof LIMITS;

/** Where the counters live: PostgreSQL here, so every server instance shares them. */
export interface CounterStore {
  /** Counts one attempt; returns the attempts in the current window, this one included. */
  hit(key: string, rule: LimitRule): Promise<{ count: number; retryAfterSeconds: number }>;
  /** Takes back one counted attempt (it succeeded, so it was not a guess). */
  undo(key: string): Promise<void>;
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
    async undo(key) {
      await q.query('update auth_limits set count = greatest(count - 1, 0) where key = $1', [key]);
    },
  };
}

export class LimitReached extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('too_many_requests_msg', `Too many attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`, 429);
  }
}

/**
 * Counts an attempt against the account and address counters before it is checked; parallel
 * guesses therefore cannot all slip under the limit. A success gives its attempt back, so only
 * failures add up. Throws LimitReached (429 too_many_requests_msg) once a counter is over.
 */
export function createLimiter(store: CounterStore) {
  return {
    async begin(kind: LimitKind, accountId: string, ip: string) {
      const keys = [`${kind}:account:${accountId}`, `${kind}:ip:${ip}`];
      const rules = [LIMITS[kind].account, LIMITS[kind].ip];
      const hits = await Promise.all(keys.map((key, i) => store.hit(key, rules[i] as LimitRule)));
      const over = hits.find((h, i) => h.count > (rules[i] as LimitRule).max);
      const release = async () => {
        await Promise.all(keys.map((key) => store.undo(key)));
      };
      if (over) throw new LimitReached(over.retryAfterSeconds);
      return { succeeded: release };
    },

    /** Gives back one counted attempt later (a code mail that led to a sign-in was no abuse). */
    async giveBack(kind: LimitKind, accountId: string, ip: string) {
      await Promise.all([store.undo(`${kind}:account:${accountId}`), store.undo(`${kind}:ip:${ip}`)]);
    },
  };
}
export type Limiter = ReturnType<typeof createLimiter>;
