import { existsSync, renameSync, rmSync } from 'node:fs';
import { CliError, generateEd25519Key, generateSymmetricKey, keyFile, writeKeyFile } from '@latchkey/runtime';
import type { Config } from '../config.ts';

/** What `latchkey rotate-keys --key <name>` may rotate (docs/keys.md). */
export const ROTATABLE = ['token', 'sealing', 'codes', 'signing'] as const;
export type Rotatable = (typeof ROTATABLE)[number];

interface Rotation {
  file: string;
  variable: string;
  generate: () => string;
  /** The variable that names the previous key, when the program reads one. */
  previous?: string;
  next: string;
}

const rotations = (config: Config): Record<Rotatable, Rotation & { configured: boolean; previousConfigured?: boolean }> => ({
  token: {
    file: 'token_secret',
    variable: 'TOKEN_SECRET',
    configured: Boolean(config.TOKEN_SECRET || config.TOKEN_SECRET_FILE),
    generate: generateSymmetricKey,
    next: 'Restart every server instance. Access tokens in flight are refused once; the console refreshes with its refresh token, so nobody is signed out.',
  },
  sealing: {
    file: 'sealing_key',
    variable: 'SEALING_KEY',
    configured: Boolean(config.SEALING_KEY || config.SEALING_KEY_FILE),
    previous: 'SEALING_KEY_PREVIOUS',
    previousConfigured: Boolean(config.SEALING_KEY_PREVIOUS || config.SEALING_KEY_PREVIOUS_FILE),
    generate: generateSymmetricKey,
    next: 'Restart every server instance. Authenticator secrets are re-sealed with the new key as admins sign in; delete sealing_key.previous once they all have (docs/keys.md), or their authenticators stop working.',
  },
  codes: {
    file: 'code_hash_key',
    variable: 'CODE_HASH_KEY',
    configured: Boolean(config.CODE_HASH_KEY || config.CODE_HASH_KEY_FILE),
    previous: 'CODE_HASH_KEY_PREVIOUS',
    previousConfigured: Boolean(config.CODE_HASH_KEY_PREVIOUS || config.CODE_HASH_KEY_PREVIOUS_FILE),
    generate: generateSymmetricKey,
    next: 'Restart every server instance. Existing backup codes keep working through code_hash_key.previous; delete it once admins have regenerated their backup codes.',
  },
  signing: {
    file: 'hub-signing-ed25519.pem',
    variable: 'SERVER_SIGNING_KEY',
    configured: Boolean(config.SERVER_SIGNING_KEY || config.SERVER_SIGNING_KEY_FILE),
    generate: generateEd25519Key,
    next: "Restart every server instance, then set up every team's Hub again (console → Integration, with a new setup key from `npm run hub-cli -- setup-key`): each Hub pinned the old public key and refuses the new one until then. Sign-in grants in flight are refused.",
  },
});

/**
 * Rotates a key kept in `<DATA_DIR>/keys` (docs/keys.md): the new key is written, and where the
 * server reads a previous key the old one becomes `<name>.previous`. A key given by value or
 * by `*_FILE` is the operator's to change; a rotation that would lose a previous key still in
 * use, or break every Hub without being asked to, is refused.
 */
export function rotateKey(config: Config, key: Rotatable, options: { force: boolean }): { file: string; next: string } {
  const r = rotations(config)[key];
  const file = keyFile(config.DATA_DIR, r.file);
  if (r.configured)
    throw new CliError(
      `${r.variable} is given by the environment (${r.variable} or ${r.variable}_FILE): change it there. ${r.previous ? `Set the old value as ${r.previous}. ` : ''}Then: ${r.next}`,
    );
  if (!existsSync(file)) throw new CliError(`${file} does not exist: the server has not started with this DATA_DIR yet.`);
  if (key === 'signing' && !options.force)
    throw new CliError(
      'Rotating the signing key cannot be done without breaking every Hub: each Hub pinned this public key and accepts no other until it is set up again. ' +
        'Run again with --force to do it anyway. After it: ' +
        r.next,
    );
  if (r.previous) {
    if (r.previousConfigured)
      throw new CliError(
        `${r.previous} is given by the environment: the file ${r.file}.previous would not be read. Remove ${r.previous} first.`,
      );
    if (existsSync(`${file}.previous`))
      throw new CliError(
        `${file}.previous still exists: the last rotation is not finished (values sealed with it may still be in use). Delete it when docs/keys.md says it is safe, then rotate again.`,
      );
    renameSync(file, `${file}.previous`);
  } else {
    // No previous key is read: the old one is of no use, and may be the one that leaked.
    rmSync(file);
  }
  writeKeyFile(file, r.generate());
  return { file, next: r.next };
}
