import { createHmac, timingSafeEqual } from 'node:crypto';

export interface AccessPayload {
  sub: string;
  sid: string;
  iat: number;
  exp: number;
  aud?: string;
}

/** How many checked tokens one signer remembers before it forgets them all (about 300 bytes each). */
const MAX_VERIFIED = 20_000;

/** The only header these tokens carry: nothing in a token chooses its own algorithm. */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');

/**
 * Short-lived access tokens as standard HS256 JWTs (RFC 7519), signed and checked synchronously
 * with node:crypto. Every authenticated call verifies one, and jose's WebCrypto path imported the
 * key and queued a thread-pool job per call: a fifth of the server's time under load.
 */
export function accessTokens(secret: string, audience?: string) {
  const key = Buffer.from(secret);
  const mac = (signingInput: string) => createHmac('sha256', key).update(signingInput).digest();
  // The tokens whose signature and audience were checked, as exactly these bytes: a session's calls
  // all carry the same token until it is refreshed, so each is checked once (its expiry every time).
  const verified = new Map<string, Readonly<AccessPayload>>();

  /** The payload of a well-formed token this secret signed for this audience (expiry unchecked); else null. */
  function check(token: string): AccessPayload | null {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== HEADER) return null;
    const signature = Buffer.from(parts[2] as string, 'base64url');
    const expected = mac(`${parts[0]}.${parts[1]}`);
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
    let payload: Partial<AccessPayload>;
    try {
      payload = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (typeof payload !== 'object' || payload === null) return null;
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
    if (typeof payload.exp !== 'number') return null;
    if (payload.aud !== audience) return null;
    return payload as AccessPayload;
  }

  return {
    /** A token for `claims` that expires at `expiresAt` (epoch ms). */
    sign(claims: { sub: string; sid: string }, expiresAt: number): string {
      const exp = Math.floor(expiresAt / 1000);
      const payload: AccessPayload = {
        ...claims,
        ...(audience ? { aud: audience } : {}),
        iat: Math.floor(Date.now() / 1000),
        exp,
      };
      const input = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
      return `${input}.${mac(input).toString('base64url')}`;
    },

    /** The payload of a token this secret signed, for this audience, not yet expired; else null. */
    verify(token: string, now = Date.now()): AccessPayload | null {
      let payload = verified.get(token);
      if (!payload) {
        const checked = check(token);
        if (!checked) return null;
        if (verified.size >= MAX_VERIFIED) verified.clear();
        payload = Object.freeze(checked);
        verified.set(token, payload);
      }
      if (payload.exp <= Math.floor(now / 1000)) {
        verified.delete(token);
        return null;
      }
      return payload;
    },
  };
}
