import { createReadStream, createWriteStream, existsSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  type BackupLock,
  type BackupManifest,
  type BackupUnlock,
  encrypterFor,
  openArchive,
  sealArchive,
} from './backup-archive.ts';
import { type DatabasePlace, databaseInUse, dumpDatabase, keyFilesIn, restoreDatabase } from './backup-database.ts';
import { CliError } from './cli.ts';
import { type KeySource, keyFile, writeKeyFile } from './key-files.ts';

/** One program's deployment: its database, its DATA_DIR, and where each of its keys may be configured. */
export interface Deployment extends DatabasePlace {
  program: BackupManifest['program'];
  /** Key file name → the configuration that may give it instead of `<DATA_DIR>/keys/<name>`. */
  keys: Record<string, KeySource>;
}

/** Key file names as they come out of an archive: plain names, never a path. */
const KEY_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

/**
 * The keys that unlock this deployment's data: every file in `<DATA_DIR>/keys`, and in their place
 * the keys the configuration gives by value or file, so the archive alone brings the deployment back.
 */
function collectKeys(deployment: Deployment): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const name of keyFilesIn(deployment.dataDir)) {
    const file = keyFile(deployment.dataDir, name);
    if (statSync(file).isFile()) keys[name] = readFileSync(file, 'utf8').trim();
  }
  for (const [name, source] of Object.entries(deployment.keys)) {
    if (source.value) keys[name] = source.value.trim();
    else if (source.file) keys[name] = readFileSync(source.file, 'utf8').trim();
  }
  return keys;
}

/** Writes the archive to `file` (mode 0600, never over an existing file); returns its size in bytes. */
export async function writeBackup(deployment: Deployment, file: string, lock: BackupLock): Promise<number> {
  if (existsSync(file)) throw new CliError(`${file} exists already: choose a new file.`);
  const encrypter = encrypterFor(lock);
  const keys = collectKeys(deployment);
  const dump = await dumpDatabase(deployment);
  const manifest: BackupManifest = {
    program: deployment.program,
    created_at: new Date().toISOString(),
    database: dump.kind,
    dumped_by: dump.dumpedBy,
    keys,
  };
  // Written beside, renamed when whole: a failed backup never leaves a file that looks like one.
  const partial = `${file}.partial`;
  try {
    await pipeline(await sealArchive(manifest, dump.bytes, encrypter), createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    renameSync(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') rmSync(partial, { force: true });
    if (error instanceof CliError) throw error;
    throw new CliError(`Cannot write ${file}: ${(error as Error).message}`);
  }
  return statSync(file).size;
}

/** What a restore did, and what the operator should know about this deployment's configured keys. */
export interface Restored {
  manifest: Omit<BackupManifest, 'keys'>;
  keys: string[];
  notes: string[];
}

/**
 * Brings an archive back into an empty deployment: its database first (in one transaction on
 * PostgreSQL), then its keys, written once the whole archive has passed its check. A wrong
 * passphrase or key, a damaged archive, another program's archive or a deployment that is not
 * empty is refused with nothing written.
 */
export async function restoreBackup(deployment: Deployment, file: string, unlock: BackupUnlock): Promise<Restored> {
  if (!existsSync(file)) throw new CliError(`${file} does not exist.`);
  const inUse = await databaseInUse(deployment);
  if (inUse) throw new CliError(`Restore goes into an empty deployment only, and ${inUse}. Nothing was restored.`);
  const present = keyFilesIn(deployment.dataDir);
  if (present.length)
    throw new CliError(
      `Restore goes into an empty deployment only, and ${join(deployment.dataDir, 'keys')} holds keys already (${present.join(', ')}). Nothing was restored.`,
    );
  const { manifest, dump } = await openArchive(createReadStream(file), unlock);
  if (manifest.program !== deployment.program)
    throw new CliError(
      `This is a backup of a ${manifest.program === 'hub' ? 'Hub' : 'server'}: restore it with ${manifest.program === 'hub' ? 'npm run hub-cli' : 'npm run cli'}. Nothing was restored.`,
    );
  const bad = Object.keys(manifest.keys).filter((name) => !KEY_NAME.test(name));
  if (bad.length)
    throw new CliError(`The archive names keys that are not key file names (${bad.join(', ')}). Nothing was restored.`);
  await restoreDatabase(deployment, manifest.database, dump);
  for (const [name, value] of Object.entries(manifest.keys)) writeKeyFile(keyFile(deployment.dataDir, name), value);
  const { keys, ...about } = manifest;
  return { manifest: about, keys: Object.keys(keys).sort(), notes: configuredElsewhere(deployment, keys) };
}

/** Keys this deployment's configuration gives by value or file, which win over the restored files. */
function configuredElsewhere(deployment: Deployment, restored: Record<string, string>): string[] {
  const notes: string[] = [];
  for (const [name, source] of Object.entries(deployment.keys)) {
    const configured = source.value?.trim() ?? (source.file ? readFileSync(source.file, 'utf8').trim() : undefined);
    if (configured === undefined || restored[name] === undefined || configured === restored[name]) continue;
    notes.push(
      `${name}: this deployment's configuration gives another key than the backed-up one, and the configured key wins. ` +
        `Give the restored ${keyFile(deployment.dataDir, name)} instead, or the data it protects stays unreadable.`,
    );
  }
  return notes;
}

/** The lines of an age recipients or identity file, without comments and blank lines. */
export function ageKeyLines(file: string): string[] {
  if (!existsSync(file)) throw new CliError(`${file} does not exist.`, 2);
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}
