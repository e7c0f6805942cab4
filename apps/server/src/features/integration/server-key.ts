import type { KeyObject } from 'node:crypto';
import { type Ed25519Jwk, loadSigningKey } from '@latchkey/runtime';

/** The server's Ed25519 key: signs sign-in grants and every call to a Hub. Only this server holds it. */
export interface ServerKey {
  signing: KeyObject;
  publicJwk: Ed25519Jwk;
}

interface KeyConfig {
  DATA_DIR: string;
  SERVER_SIGNING_KEY?: string | undefined;
  SERVER_SIGNING_KEY_FILE?: string | undefined;
}

/** From configuration, else a file, else generated once in DATA_DIR/keys (never the database). */
export function loadServerKey(config: KeyConfig): ServerKey {
  return loadSigningKey(config.DATA_DIR, { value: config.SERVER_SIGNING_KEY, file: config.SERVER_SIGNING_KEY_FILE });
}
