import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The tokens a rotation answered, kept on the spent refresh token's row so a renewal that lost a
 * race gets the very same answer. They are sealed (AES-256-GCM) under a key derived from the spent
 * refresh token itself, which the database never holds (only its SHA-256): a database dump cannot
 * open them, only whoever presents that refresh token can. The row's hash is the associated data,
 * so a sealed value moved to another row does not open.
 */
const keyOf = (token: string): Buffer => Buffer.from(hkdfSync('sha256', token, '', 'latchkey refresh successor v1', 32));

export function sealSuccessor(token: string, tokenHash: string, successor: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(token), iv);
  cipher.setAAD(Buffer.from(tokenHash));
  const body = Buffer.concat([cipher.update(JSON.stringify(successor), 'utf8'), cipher.final()]);
  return ['v1', ...[iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url'))].join('.');
}

/** The successor sealed for `token`, or null when it was not sealed for it. */
export function openSuccessor<T>(token: string, tokenHash: string, sealed: string): T | null {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !body || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(token), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(tokenHash));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    return JSON.parse(plain) as T;
  } catch {
    return null;
  }
}
