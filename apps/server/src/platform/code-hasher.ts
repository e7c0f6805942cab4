import { createHmac } from 'node:crypto';
import { safeEqual } from '@latchkey/runtime';

/** Marks a stored value as keyed; values without it predate migration 0014. */
const PREFIX = 'k1.';

/**
 * Stored form of short codes (backup codes, emailed sign-in codes): HMAC-SHA-256 under a key
 * from configuration. A plain hash of a 6-digit or 50-bit code is reversed by trying them all;
 * without the key, a database dump gives nothing to try against. The first key hashes new codes;
 * every key (current, previous) is accepted when checking, so a rotation does not void them at once.
 */
export function createCodeHasher(keys: string[]) {
  const [current] = keys;
  if (!current) throw new Error('no code hash key');
  const mac = (key: string, value: string) => PREFIX + createHmac('sha256', key).update(value).digest('base64url');
  return {
    hash: (value: string): string => mac(current, value),
    /** The stored forms under every accepted key, for a lookup by value. */
    candidates: (value: string): string[] => keys.map((key) => mac(key, value)),
    /** Constant-time check of a stored value against every accepted key. */
    matches(stored: string, value: string): boolean {
      let found = false;
      for (const key of keys) found = safeEqual(stored, mac(key, value)) || found;
      return found;
    },
    /** A stored value from before 0014 (an unkeyed SHA-256), which `hash` of it would replace. */
    isLegacy: (stored: string): boolean => !stored.startsWith(PREFIX),
  };
}
export type CodeHasher = ReturnType<typeof createCodeHasher>;
