import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** An unguessable opaque token (refresh tokens, credentials). */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Stored form of an opaque token: only its hash is kept, so a database leak reveals none. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A numeric code of `length` digits, uniformly random. */
export const numericCode = (length: number): string => Array.from({ length }, () => randomInt(0, 10)).join('');

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
