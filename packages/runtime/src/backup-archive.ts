import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Decrypter, Encrypter } from 'age-encryption';
import { CliError } from './cli.ts';

/**
 * A backup archive is an age file (age-encryption.org: scrypt for a passphrase, X25519 for the
 * operator's public key; authenticated in 64 KiB chunks, so a damaged or cut archive is refused).
 * Its plaintext is one line naming the format, one line of JSON (the manifest, with the keys),
 * then the database dump to the end, so a dump of any size streams through without being held.
 */
const MAGIC = 'latchkey-backup/1';

export interface BackupManifest {
  /** The program whose database and keys these are: a server's archive never restores into a Hub. */
  program: 'server' | 'hub';
  created_at: string;
  /** `postgres`: a pg_dump custom-format dump; `pglite`: the embedded database's data directory (tar.gz). */
  database: 'postgres' | 'pglite';
  /** The dump tool's or PGlite's version, for the operator reading a failed restore. */
  dumped_by: string;
  /** Key file name → content, as they are written to `<DATA_DIR>/keys`. */
  keys: Record<string, string>;
}

/** Who can open the archive: whoever knows the passphrase, or holds the private key of a recipient. */
export type BackupLock = { passphrase: string } | { recipients: string[] };
export type BackupUnlock = { passphrase: string } | { identities: string[] };

/** Long enough that scrypt's cost leaves offline guessing hopeless. */
export const MIN_PASSPHRASE_LENGTH = 16;

/** An encrypter for the lock, refusing a malformed public key before any work is done. */
export function encrypterFor(lock: BackupLock): Encrypter {
  const encrypter = new Encrypter();
  if ('passphrase' in lock) encrypter.setPassphrase(lock.passphrase);
  else
    for (const recipient of lock.recipients) {
      try {
        encrypter.addRecipient(recipient);
      } catch {
        throw new CliError(`"${recipient}" is not an age public key (age1…).`, 2);
      }
    }
  return encrypter;
}

/** The encrypted archive of a manifest and the dump that follows it. */
export async function sealArchive(
  manifest: BackupManifest,
  dump: AsyncIterable<Uint8Array>,
  encrypter: Encrypter,
): Promise<Readable> {
  async function* plaintext() {
    yield Buffer.from(`${MAGIC}\n${JSON.stringify(manifest)}\n`);
    yield* dump;
  }
  const sealed = await encrypter.encrypt(Readable.toWeb(Readable.from(plaintext())) as ReadableStream<Uint8Array>);
  return Readable.fromWeb(sealed as WebReadableStream<Uint8Array>);
}

/** An opened archive: its manifest, and its dump, which throws DamagedArchiveError where the archive fails its check. */
export interface OpenedArchive {
  manifest: BackupManifest;
  dump: AsyncIterable<Uint8Array>;
}

export class DamagedArchiveError extends CliError {
  constructor() {
    super('The archive is damaged or cut short (it fails its authentication): nothing was restored.');
  }
}

/** Opens the archive's header and manifest; a wrong passphrase or key is refused here, before anything is read further. */
export async function openArchive(archive: Readable, unlock: BackupUnlock): Promise<OpenedArchive> {
  const decrypter = new Decrypter();
  if ('passphrase' in unlock) decrypter.addPassphrase(unlock.passphrase);
  else
    for (const identity of unlock.identities) {
      try {
        decrypter.addIdentity(identity);
      } catch {
        throw new CliError('The identity file holds no age private key (AGE-SECRET-KEY-1…).', 2);
      }
    }
  let plain: Readable;
  try {
    const web = await decrypter.decrypt(Readable.toWeb(archive) as ReadableStream<Uint8Array>);
    plain = Readable.fromWeb(web as WebReadableStream<Uint8Array>);
  } catch {
    throw new CliError('Cannot open the archive: wrong passphrase or key, or not a Latchkey backup. Nothing was restored.');
  }
  const chunks = plain[Symbol.asyncIterator]();
  const next = async () => {
    try {
      return await chunks.next();
    } catch {
      throw new DamagedArchiveError();
    }
  };
  // The two header lines, then whatever of the dump came with them.
  let head = Buffer.alloc(0);
  const second = () => head.indexOf(0x0a, head.indexOf(0x0a) + 1);
  while (head.indexOf(0x0a) < 0 || second() < 0) {
    const step = await next();
    if (step.done) throw new DamagedArchiveError();
    head = Buffer.concat([head, step.value]);
    if (head.length > 16 * 1024 * 1024) throw new CliError('Not a Latchkey backup.');
  }
  const first = head.indexOf(0x0a);
  if (head.subarray(0, first).toString() !== MAGIC)
    throw new CliError('Not a Latchkey backup (or one of another format version).');
  const manifest = JSON.parse(head.subarray(first + 1, second()).toString()) as BackupManifest;
  const rest = head.subarray(second() + 1);
  async function* dump() {
    if (rest.length) yield rest;
    for (;;) {
      const step = await next();
      if (step.done) return;
      yield step.value as Uint8Array;
    }
  }
  return { manifest, dump: dump() };
}
