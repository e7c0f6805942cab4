import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { describe, expect, test } from 'vitest';
import { type BackupManifest, encrypterFor, openArchive, sealArchive } from './backup-archive.ts';

const manifest: BackupManifest = {
  program: 'server',
  created_at: '2026-11-29T00:00:00.000Z',
  database: 'postgres',
  dumped_by: 'pg_dump (PostgreSQL) 15.20',
  keys: { token_secret: 'k'.repeat(43), 'hub-signing-ed25519.pem': '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----' },
};

/** A dump in uneven pieces, over several of age's 64 KiB chunks. */
const dump = randomBytes(300_000);
async function* pieces() {
  for (let i = 0; i < dump.length; i += 70_001) yield dump.subarray(i, i + 70_001);
}

const sealed = async (lock: Parameters<typeof encrypterFor>[0]) =>
  buffer(await sealArchive(manifest, pieces(), encrypterFor(lock)));
const readAll = async (archive: Buffer, unlock: Parameters<typeof openArchive>[1]) => {
  const opened = await openArchive(Readable.from([archive]), unlock);
  const chunks: Uint8Array[] = [];
  for await (const chunk of opened.dump) chunks.push(chunk);
  return { manifest: opened.manifest, dump: Buffer.concat(chunks) };
};

// Each passphrase costs scrypt at age's work factor (2^18): seconds each on a busy machine.
describe('the backup archive', () => {
  test("an operator's age key pair: sealed to the public key, opened with the private key, manifest and dump byte for byte", async () => {
    const identity = await generateX25519Identity();
    const archive = await sealed({ recipients: [await identityToRecipient(identity)] });
    expect(archive.includes(Buffer.from(manifest.keys.token_secret as string))).toBe(false);
    const opened = await readAll(archive, { identities: [identity] });
    expect(opened.manifest).toEqual(manifest);
    expect(opened.dump.equals(dump)).toBe(true);
    // Another private key opens nothing.
    await expect(readAll(archive, { identities: [await generateX25519Identity()] })).rejects.toThrow('wrong passphrase or key');
  });

  test('a passphrase: the right one opens it, another is refused before any of the dump is read', async () => {
    const archive = await sealed({ passphrase: 'a passphrase of some length' });
    expect((await readAll(archive, { passphrase: 'a passphrase of some length' })).dump.equals(dump)).toBe(true);
    await expect(openArchive(Readable.from([archive]), { passphrase: 'another passphrase' })).rejects.toThrow(
      'wrong passphrase or key',
    );
  }, 120_000);

  test('an archive cut short or with a byte changed fails where it breaks, not silently', async () => {
    const identity = await generateX25519Identity();
    const archive = await sealed({ recipients: [await identityToRecipient(identity)] });
    const cut = archive.subarray(0, archive.length - 100);
    await expect(readAll(cut, { identities: [identity] })).rejects.toThrow('damaged or cut short');
    const changed = Buffer.from(archive);
    changed[200_000] = (changed[200_000] ?? 0) ^ 1;
    await expect(readAll(changed, { identities: [identity] })).rejects.toThrow('damaged or cut short');
  });

  test('a malformed public key is refused as wrong usage', () => {
    expect(() => encrypterFor({ recipients: ['age1bogus'] })).toThrow('is not an age public key');
  });

  test('an age file that is not a Latchkey backup is refused as such', async () => {
    const { Encrypter } = await import('age-encryption');
    const e = new Encrypter();
    e.setPassphrase('a passphrase of some length');
    const other = Buffer.from(await e.encrypt('hello\nworld\nmore'));
    await expect(openArchive(Readable.from([other]), { passphrase: 'a passphrase of some length' })).rejects.toThrow(
      'Not a Latchkey backup',
    );
  }, 120_000);
});
