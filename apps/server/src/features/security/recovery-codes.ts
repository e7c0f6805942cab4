import { randomInt } from 'node:crypto';
import { hashToken } from '@latchkey/runtime';

/** Ten codes of ten characters from a 32-letter alphabet without look-alikes: 50 bits each. */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz0';

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = Array.from({ length: 10 }, () => ALPHABET[randomInt(0, ALPHABET.length)]).join('');
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

/** What the admin typed, in stored form: case, spaces and dashes do not matter. */
export const recoveryCodeHash = (userId: string, code: string): string =>
  hashToken(`recovery:${userId}:${code.toLowerCase().replace(/[^0-9a-z]/g, '')}`);
