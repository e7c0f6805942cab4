import { writeFileSync } from 'node:fs';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { ageKeyLines, type Deployment, restoreBackup, writeBackup } from './backup.ts';
import { type BackupLock, type BackupUnlock, MIN_PASSPHRASE_LENGTH } from './backup-archive.ts';
import { type CliCommand, CliError } from './cli.ts';

/** The passphrase comes from the environment only: a command-line argument shows in the process list. */
export const PASSPHRASE_VARIABLE = 'BACKUP_PASSPHRASE';

function passphrase(env: NodeJS.ProcessEnv, forWriting: boolean): string {
  const value = env[PASSPHRASE_VARIABLE];
  if (!value)
    throw new CliError(
      `Set ${PASSPHRASE_VARIABLE} (or ${forWriting ? 'give --recipient/--recipient-file, an age public key' : 'give --identity, the age private key file'}).`,
      2,
    );
  if (forWriting && value.length < MIN_PASSPHRASE_LENGTH)
    throw new CliError(`${PASSPHRASE_VARIABLE} must be at least ${MIN_PASSPHRASE_LENGTH} characters.`, 2);
  return value;
}

const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * `backup`, `restore` and `backup-key` for a program's command line (the server's and the Hub's):
 * each program backs up its own database and keys, where its own configuration points.
 */
export function backupCommands(
  deployment: () => Deployment,
  env: NodeJS.ProcessEnv = process.env,
): Record<'backup' | 'restore' | 'backup-key', CliCommand> {
  return {
    backup: {
      summary: `write one encrypted archive of the database and the keys (passphrase in ${PASSPHRASE_VARIABLE}, or an age public key); see docs/operations.md`,
      usage: '<file> [--recipient age1… | --recipient-file <file>]',
      positional: 'file',
      options: { recipient: {}, 'recipient-file': {} },
      async run(v) {
        let lock: BackupLock;
        if (v.recipient && v['recipient-file']) throw new CliError('Give --recipient or --recipient-file, not both.', 2);
        if (v.recipient) lock = { recipients: [v.recipient] };
        else if (v['recipient-file']) lock = { recipients: ageKeyLines(v['recipient-file']) };
        else lock = { passphrase: passphrase(env, true) };
        if ('recipients' in lock && !lock.recipients.length) throw new CliError('The recipient file holds no public key.', 2);
        const started = performance.now();
        const bytes = await writeBackup(deployment(), v.file as string, lock);
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.info(
          `Wrote ${v.file} (${size(bytes)}, ${seconds} s): the database and the keys, encrypted. Keep it apart from what unlocks it.`,
        );
      },
    },
    restore: {
      summary: `bring an archive back into an EMPTY deployment (database and keys); refuses one that holds data`,
      usage: '<file> [--identity <age private key file>]',
      positional: 'file',
      options: { identity: {} },
      async run(v) {
        const unlock: BackupUnlock = v.identity
          ? { identities: ageKeyLines(v.identity) }
          : { passphrase: passphrase(env, false) };
        const started = performance.now();
        const done = await restoreBackup(deployment(), v.file as string, unlock);
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.info(
          `Restored the ${done.manifest.program}'s ${done.manifest.database} database of ${done.manifest.created_at} and its keys (${done.keys.join(', ')}) in ${seconds} s.`,
        );
        for (const note of done.notes) console.error(`warning: ${note}`);
      },
    },
    'backup-key': {
      summary:
        'make an age key pair for backups: writes the private key (keep it offline) and prints the public key for --recipient',
      usage: '--out <file>',
      options: { out: { required: true } },
      async run(v) {
        const identity = await generateX25519Identity();
        const recipient = await identityToRecipient(identity);
        try {
          writeFileSync(v.out as string, `# public key: ${recipient}\n${identity}\n`, { flag: 'wx', mode: 0o600 });
        } catch (error) {
          throw new CliError(`Cannot write ${v.out}: ${(error as Error).message}`);
        }
        console.info(recipient);
        console.error(`Wrote the private key to ${v.out}: keep it away from the backups; restore needs it (--identity).`);
      },
    },
  };
}
