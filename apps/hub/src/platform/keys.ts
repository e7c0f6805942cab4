import type { KeyObject } from 'node:crypto';
import { type Ed25519Jwk, generateEd25519Key, generateSymmetricKey, loadKey, privateKeyOf, publicJwkOf } from '@latchkey/runtime';

export interface HubKeys {
  /** Signs this Hub's calls to the licence server; the server keeps its public half. */
  signing: KeyObject;
  publicJwk: Ed25519Jwk;
  /** Signs the setup keys the operator mints (features/registrations/setup-keys.ts). */
  setupSecret: string;
}

interface KeyConfig {
  DATA_DIR: string;
  HUB_SIGNING_KEY?: string | undefined;
  HUB_SIGNING_KEY_FILE?: string | undefined;
  HUB_SETUP_SECRET?: string | undefined;
  HUB_SETUP_SECRET_FILE?: string | undefined;
}

/** The Hub's keys: configuration, else a file, else generated once in DATA_DIR/keys (never the database). */
export function loadHubKeys(config: KeyConfig): HubKeys {
  const signing = privateKeyOf(
    loadKey(
      config.DATA_DIR,
      'hub-signing-ed25519.pem',
      { value: config.HUB_SIGNING_KEY, file: config.HUB_SIGNING_KEY_FILE },
      generateEd25519Key,
    ),
  );
  const setupSecret = loadKey(
    config.DATA_DIR,
    'hub-setup-secret',
    { value: config.HUB_SETUP_SECRET, file: config.HUB_SETUP_SECRET_FILE },
    generateSymmetricKey,
  );
  return { signing, publicJwk: publicJwkOf(signing), setupSecret };
}
