import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'latchkey-lock-'));

test('a data directory is held by one owner at a time, and free again once released', () => {
  const d = dir();
  const release = lockDataDir(d);
  expect(() => lockDataDir(d)).toThrow(DataDirInUseError);
  release();
  lockDataDir(d)();
});

test('a live process holding the directory is named; a dead one, or an earlier run with our id, leaves it free', async () => {
  const d = dir();
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
  try {
    writeFileSync(join(d, LOCK_FILE), `${other.pid}\n`);
    expect(() => lockDataDir(d)).toThrow(`in use by process ${other.pid}`);
  } finally {
    other.kill('SIGKILL');
    await new Promise((resolve) => other.once('exit', resolve));
  }
  lockDataDir(d)();
  writeFileSync(join(d, LOCK_FILE), `${process.pid}\n`);
  const release = lockDataDir(d);
  expect(readFileSync(join(d, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
  release();
});
