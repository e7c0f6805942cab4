import { createHash, createPrivateKey, createPublicKey, type KeyObject, randomUUID, sign, verify } from 'node:crypto';
import type { Queryable } from './db.ts';
import { generateEd25519Key, type KeySource, loadKey } from './key-files.ts';

/**
 * Ed25519 compact JWS, the one signature format between the licence server and a Hub (sign-in
 * grants and the calls of either side). Written on node:crypto rather than a general JWT
 * library so that exactly one header shape is accepted: `alg` EdDSA, our own `typ`, a `kid`,
 * nothing else — no `none`, no HMAC, no embedded keys, whatever a token claims.
 */

/** The public half of an Ed25519 key as JWK, the form stored by the other side. */
export interface Ed25519Jwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
}

export const JWS_TYP = {
  grant: 'latchkey-grant+jwt',
  enrolment: 'latchkey-enrolment+jwt',
  call: 'latchkey-call+jws',
} as const;
export type JwsTyp = (typeof JWS_TYP)[keyof typeof JWS_TYP];

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function privateKeyOf(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the signing key must be an Ed25519 private key');
  return key;
}

export function publicJwkOf(privateKey: KeyObject): Ed25519Jwk {
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' });
  return { kty: 'OKP', crv: 'Ed25519', x: String(x) };
}

/** An Ed25519 signing key and its public half, from configuration or `<dataDir>/keys` (one loader for server and Hub). */
export function loadSigningKey(dataDir: string, source: KeySource): { signing: KeyObject; publicJwk: Ed25519Jwk } {
  const signing = privateKeyOf(loadKey(dataDir, 'hub-signing-ed25519.pem', source, generateEd25519Key));
  return { signing, publicJwk: publicJwkOf(signing) };
}

/** A stored JWK back to a key; null for anything that is not an Ed25519 public key. */
export function publicKeyOf(jwk: unknown): KeyObject | null {
  const j = jwk as Partial<Ed25519Jwk> | null;
  if (j?.kty !== 'OKP' || j.crv !== 'Ed25519' || typeof j.x !== 'string' || j.x.length !== 43) return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: j.x }, format: 'jwk' });
  } catch {
    return null;
  }
}

export const sameJwk = (a: unknown, b: unknown) =>
  Boolean(a && b && (a as Ed25519Jwk).x === (b as Ed25519Jwk).x && publicKeyOf(a) && publicKeyOf(b));

export function signJws(key: KeyObject, typ: JwsTyp, kid: string, payload: Record<string, unknown>): string {
  const input = `${b64({ alg: 'EdDSA', typ, kid })}.${b64(payload)}`;
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
}

/** The kid of a token of the given type, before its key is known; null when the header is not ours. */
export function jwsKid(token: string, typ: JwsTyp): string | null {
  const header = parsePart(token.split('.')[0]);
  if (!header || Object.keys(header).length !== 3) return null;
  if (header.alg !== 'EdDSA' || header.typ !== typ || typeof header.kid !== 'string' || !header.kid) return null;
  return header.kid;
}

/** The payload when `key` signed the token and its header is ours; null otherwise. */
export function verifyJws(token: string, typ: JwsTyp, key: KeyObject): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !jwsKid(token, typ)) return null;
  const [h, p, s] = parts as [string, string, string];
  let ok = false;
  try {
    ok = verify(null, Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'));
  } catch {
    return null;
  }
  return ok ? parsePart(p) : null;
}

function parsePart(part: string | undefined): Record<string, unknown> | null {
  if (!part) return null;
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Seconds a signed call is good for, and the clock difference tolerated between the two sides. */
export const SIGNED_CALL_SECONDS = 60;
export const SIGNED_CALL_CLOCK_SKEW_SECONDS = 30;

export const bodyHash = (body: string) => createHash('sha256').update(body).digest('base64url');

/**
 * Signs one call: who (kid), for which endpoint (aud = its path) and team, when (iat, exp), a
 * nonce (jti) the receiver spends, and the SHA-256 of the exact JSON body sent. Returns the body
 * to send with it, so the signed bytes and the sent bytes are the same string.
 */
export function signCall(key: KeyObject, kid: string, path: string, teamSlug: string, body: unknown) {
  const json = JSON.stringify(body);
  const now = Math.floor(Date.now() / 1000);
  const token = signJws(key, JWS_TYP.call, kid, {
    aud: path,
    team_slug: teamSlug,
    iat: now,
    exp: now + SIGNED_CALL_SECONDS,
    jti: randomUUID(),
    body_sha256: bodyHash(json),
  });
  return { token, json };
}

export type CallCheck = { ok: true; jti: string; exp: number } | { ok: false; reason: string };

/**
 * Checks a signed call's claims once its signature verified: the path, the team, the time window
 * and the body. The receiver then spends the jti, so the same call is accepted once.
 * `body` is the parsed JSON body; our senders send JSON.stringify output, which re-serialises to
 * the same bytes, so any change (or a body that is not ours) fails the hash: refused, never let by.
 */
export function checkCallClaims(
  claims: Record<string, unknown>,
  expected: { path: string; teamSlug: string; body: unknown },
): CallCheck {
  const now = Math.floor(Date.now() / 1000);
  const { aud, team_slug, iat, exp, jti, body_sha256 } = claims;
  if (aud !== expected.path) return { ok: false, reason: 'audience' };
  if (team_slug !== expected.teamSlug) return { ok: false, reason: 'team' };
  if (typeof iat !== 'number' || typeof exp !== 'number' || typeof jti !== 'string' || jti.length < 16)
    return { ok: false, reason: 'claims' };
  if (
    exp <= now ||
    iat > now + SIGNED_CALL_CLOCK_SKEW_SECONDS ||
    exp - iat > SIGNED_CALL_SECONDS ||
    iat < now - SIGNED_CALL_SECONDS - SIGNED_CALL_CLOCK_SKEW_SECONDS
  )
    return { ok: false, reason: 'stale' };
  if (body_sha256 !== bodyHash(JSON.stringify(expected.body ?? {}))) return { ok: false, reason: 'body' };
  return { ok: true, jti, exp };
}

/**
 * Records a one-time id (a call's or a grant's jti, a setup key's nonce) until it expires; false
 * when it was already spent. Each program has a `used_nonces` table of this shape.
 */
export async function spendNonce(q: Queryable, id: string, expSeconds: number): Promise<boolean> {
  await q.query('delete from used_nonces where expires_at < now()');
  const rows = await q.query(
    'insert into used_nonces (id, expires_at) values ($1, to_timestamp($2)) on conflict (id) do nothing returning id',
    [id, expSeconds],
  );
  return rows.length === 1;
}

/** A signed call's whole check on the receiving side: signature by `key`, claims, then its nonce spent. */
export async function acceptSignedCall(
  q: Queryable,
  token: string,
  key: KeyObject,
  expected: { path: string; teamSlug: string; body: unknown },
): Promise<boolean> {
  const claims = verifyJws(token, JWS_TYP.call, key);
  if (!claims) return false;
  const check = checkCallClaims(claims, expected);
  if (!check.ok) return false;
  return spendNonce(q, `call:${check.jti}`, check.exp);
}

/** The token of an `Authorization: Bearer` header, or null. */
export const bearerOf = (header: string | undefined) => (header?.startsWith('Bearer ') ? header.slice(7) : null);
