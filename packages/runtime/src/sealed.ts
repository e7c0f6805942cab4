import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const aesKey = (secret: string) => createHash('sha256').update(`latchkey-sealed:${secret}`).digest();

function openWith(key: Buffer, sealed: string): string | null {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !body || !tag) throw new Error('unreadable sealed value');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // GCM's tag does not match: sealed under another key.
    return null;
  }
}

/**
 * Encrypts small secrets kept in the database (authenticator secrets, a directory's bind password) with AES-256-GCM, so a
 * database dump alone does not reveal them. The keys come from configuration (platform/keys.ts):
 * the first seals; a previous one is still read during a rotation, and `reseal` moves a value to
 * the current key when it is next used.
 */
export function createSealer(secrets: string | string[]) {
  const keys = (Array.isArray(secrets) ? secrets : [secrets]).map(aesKey);
  const [current] = keys;
  if (!current) throw new Error('no sealing key');
  const seal = (plain: string): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', current, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  };
  return {
    seal,
    open(sealed: string): string {
      for (const key of keys) {
        const plain = openWith(key, sealed);
        if (plain !== null) return plain;
      }
      throw new Error('unreadable sealed value');
    },
    /** The value sealed under the current key when it was sealed under a previous one, else null. */
    reseal(sealed: string): string | null {
      if (openWith(current, sealed) !== null) return null;
      for (const key of keys.slice(1)) {
        const plain = openWith(key, sealed);
        if (plain !== null) return seal(plain);
      }
      return null;
    },
  };
}
export type Sealer = ReturnType<typeof createSealer>;
