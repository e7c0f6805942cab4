import type { KeyObject } from 'node:crypto';
import { type Ed25519Jwk, generateSymmetricKey, type KeySource, loadKey, loadSigningKey } from '@latchkey/runtime';
import type { Config } from '../config.ts';

/** Where the Hub's keys come from, by the name of their key file (and their old `app_secrets` row). */
export const hubKeySources = (config: Config): Record<'hub_token_secret' | 'hub_sealing_key', KeySource> => ({
  hub_token_secret: { value: config.HUB_TOKEN_SECRET, file: config.HUB_TOKEN_SECRET_FILE },
  hub_sealing_key: { value: config.HUB_SEALING_KEY, file: config.HUB_SEALING_KEY_FILE },
});

/** Seals the secrets the Hub keeps in its database; from configuration or <DATA_DIR>/keys, never the database. */
export const loadHubSealingKey = (config: Config): string =>
  loadKey(config.DATA_DIR, 'hub_sealing_key', hubKeySources(config).hub_sealing_key, generateSymmetricKey);

/** Signs the Hub's access tokens; from configuration or <DATA_DIR>/keys, never the database. */
export const loadHubTokenSecret = (config: Config): string =>
  loadKey(config.DATA_DIR, 'hub_token_secret', hubKeySources(config).hub_token_secret, generateSymmetricKey);

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
  const { signing, publicJwk } = loadSigningKey(config.DATA_DIR, {
    value: config.HUB_SIGNING_KEY,
    file: config.HUB_SIGNING_KEY_FILE,
  });
  const setupSecret = loadKey(
    config.DATA_DIR,
    'hub-setup-secret',
    { value: config.HUB_SETUP_SECRET, file: config.HUB_SETUP_SECRET_FILE },
    generateSymmetricKey,
  );
  return { signing, publicJwk, setupSecret };
}
