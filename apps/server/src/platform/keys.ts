import { generateSymmetricKey, type KeySource, loadKey, loadPreviousKey } from '@latchkey/runtime';
import type { Config } from '../config.ts';

/**
 * The server's keys, from configuration (see config.ts), never the database. Three separate keys
 * rather than one root key with derived sub-keys, so each can be rotated alone with only its own
 * consequence: the token key voids access tokens in flight, the sealing key needs re-sealing, the
 * code key voids backup codes (each of the last two accepts a previous key meanwhile).
 */
interface ServerKeys {
  token: string;
  /** Current first, then the previous one if configured. */
  sealing: string[];
  codes: string[];
}

/** Where each key comes from, by the name of its key file (and its old `app_secrets` row). */
export const serverKeySources = (config: Config): Record<'token_secret' | 'sealing_key' | 'code_hash_key', KeySource> => ({
  token_secret: { value: config.TOKEN_SECRET, file: config.TOKEN_SECRET_FILE },
  sealing_key: { value: config.SEALING_KEY, file: config.SEALING_KEY_FILE },
  code_hash_key: { value: config.CODE_HASH_KEY, file: config.CODE_HASH_KEY_FILE },
});

export function loadServerKeys(config: Config): ServerKeys {
  const sources = serverKeySources(config);
  const load = (name: keyof typeof sources) => loadKey(config.DATA_DIR, name, sources[name], generateSymmetricKey);
  const previous = (name: keyof typeof sources, source: KeySource) => {
    const key = loadPreviousKey(config.DATA_DIR, name, source);
    return key ? [key] : [];
  };
  return {
    token: load('token_secret'),
    sealing: [
      load('sealing_key'),
      ...previous('sealing_key', { value: config.SEALING_KEY_PREVIOUS, file: config.SEALING_KEY_PREVIOUS_FILE }),
    ],
    codes: [
      load('code_hash_key'),
      ...previous('code_hash_key', { value: config.CODE_HASH_KEY_PREVIOUS, file: config.CODE_HASH_KEY_PREVIOUS_FILE }),
    ],
  };
}
