import { generateSymmetricKey, type KeySource, loadKey } from '@latchkey/runtime';
import type { Config } from '../config.ts';

/** Where the Hub's keys come from, by the name of their key file (and their old `app_secrets` row). */
export const hubKeySources = (config: Config): Record<'hub_token_secret', KeySource> => ({
  hub_token_secret: { value: config.HUB_TOKEN_SECRET, file: config.HUB_TOKEN_SECRET_FILE },
});

/** Signs the Hub's access tokens; from configuration or <DATA_DIR>/keys, never the database. */
export const loadHubTokenSecret = (config: Config): string =>
  loadKey(config.DATA_DIR, 'hub_token_secret', hubKeySources(config).hub_token_secret, generateSymmetricKey);
