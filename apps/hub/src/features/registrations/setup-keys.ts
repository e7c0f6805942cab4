import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError, type Queryable, spendNonce } from '@latchkey/runtime';

/**
 * Setup keys: what a Hub's operator gives one team's admin so the team's server may register
 * here. Self-contained (`lksk_<claims>.<hmac>`), signed with the Hub's setup secret, bound to one
 * team slug, valid for minutes, and spent on first use (its nonce is recorded).
 */
const PREFIX = 'lksk_';
export const SETUP_KEY_DEFAULT_MINUTES = 30;

const mac = (secret: string, claims: string) => createHmac('sha256', secret).update(claims).digest('base64url');

export function mintSetupKey(secret: string, teamSlug: string, minutes = SETUP_KEY_DEFAULT_MINUTES, now = Date.now()): string {
  const claims = Buffer.from(
    JSON.stringify({
      team_slug: teamSlug,
      exp: Math.floor(now / 1000) + minutes * 60,
      nonce: randomBytes(16).toString('base64url'),
    }),
  ).toString('base64url');
  return `${PREFIX}${claims}.${mac(secret, claims)}`;
}

const invalid = () =>
  new AppError('setup_key_invalid', 'The setup key is not valid for this team, has expired or was used.').shows(
    'errors.setup_key_invalid',
  );

/** Accepts the key once, for its own team only; every other case is the same refusal. */
export async function redeemSetupKey(q: Queryable, secret: string, key: string, teamSlug: string): Promise<void> {
  if (!key.startsWith(PREFIX)) throw invalid();
  const [claims, signature] = key.slice(PREFIX.length).split('.');
  if (!claims || !signature) throw invalid();
  const expected = Buffer.from(mac(secret, claims));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
  let parsed: { team_slug?: unknown; exp?: unknown; nonce?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (parsed.team_slug !== teamSlug || typeof parsed.exp !== 'number' || typeof parsed.nonce !== 'string') throw invalid();
  if (parsed.exp * 1000 <= Date.now()) throw invalid();
  if (!(await spendNonce(q, `setup:${parsed.nonce}`, parsed.exp))) throw invalid();
}
