import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateEd25519Key, generateSymmetricKey, loadKey } from './key-files.ts';

const scratch = () => mkdtempSync(join(tmpdir(), 'latchkey-keys-'));

describe('loadKey', () => {
  it('refuses a given key file that holds no key (a secret mounted but never filled), naming it', () => {
    const dir = scratch();
    const file = join(dir, 'token_secret');
    writeFileSync(file, '\n');
    expect(() => loadKey(dir, 'token', { file }, generateSymmetricKey)).toThrow(`The key file ${file} is empty`);
    writeFileSync(file, `${'k'.repeat(32)}\n`);
    expect(loadKey(dir, 'token', { file }, generateSymmetricKey)).toBe('k'.repeat(32));
  });

  it('generates a key once into the data directory, readable by its owner only', () => {
    const dir = scratch();
    const first = loadKey(dir, 'token', {}, generateSymmetricKey);
    expect(first).toHaveLength(43);
    expect(loadKey(dir, 'token', {}, generateSymmetricKey)).toBe(first);
    expect(statSync(join(dir, 'keys', 'token')).mode & 0o777).toBe(0o600);
  });

  it('prefers the configured value, then the configured file', () => {
    const dir = scratch();
    const file = join(dir, 'given');
    writeFileSync(file, 'from-file\n');
    expect(loadKey(dir, 'k', { value: 'from-env', file }, generateSymmetricKey)).toBe('from-env');
    expect(loadKey(dir, 'k', { file }, generateSymmetricKey)).toBe('from-file');
  });

  it('generates Ed25519 keys that node:crypto reads', () => {
    const key = createPrivateKey(loadKey(scratch(), 'signing', {}, generateEd25519Key));
    expect(key.asymmetricKeyType).toBe('ed25519');
  });
});
