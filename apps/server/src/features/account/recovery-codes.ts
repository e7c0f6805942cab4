import { randomInt } from 'node:crypto';
import { type Db, hashToken } from '@latchkey/runtime';
import type { CodeHasher } from '../../platform/code-hasher.ts';
import { accountRepository } from './account.repository.ts';

/** Ten codes of ten characters from a 32-letter alphabet without look-alikes: 50 bits each. */
const RECOVERY_CODE_COUNT = 10;
const ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz0';

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = Array.from({ length: 10 }, () => ALPHABET[randomInt(0, ALPHABET.length)]).join('');
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

/**
 * What the admin typed, before the keyed hash (platform/code-hasher.ts): case, spaces and dashes
 * do not matter. It is the unkeyed SHA-256 that releases before migration 0014 stored, so those
 * rows are re-keyed on start (`rekeyLegacyRecoveryCodes`) and keep working.
 */
export const recoveryCodeInput = (userId: string, code: string): string =>
  hashToken(`recovery:${userId}:${code.toLowerCase().replace(/[^0-9a-z]/g, '')}`);

/** Wraps backup codes still stored as unkeyed hashes (before 0014) in the keyed hash; idempotent. */
export async function rekeyLegacyRecoveryCodes(db: Db, codes: CodeHasher): Promise<number> {
  const legacy = await accountRepository.unkeyedRecoveryCodes(db);
  for (const row of legacy) await accountRepository.rekeyRecoveryCode(db, row.id, row.code_hash, codes.hash(row.code_hash));
  return legacy.length;
}
