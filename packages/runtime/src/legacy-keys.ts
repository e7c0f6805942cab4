import { existsSync, readFileSync } from 'node:fs';
import type { Db } from './db.ts';
import { type KeySource, keyFile, writeKeyFile } from './key-files.ts';

/**
 * Upgrade step, run before migrations: releases before server migration 0014 / Hub migration
 * 0010 kept their keys in the `app_secrets` table, which those migrations drop. Each stored key is
 * moved to its key file first, so tokens stay valid and sealed authenticator secrets readable.
 * A key already configured (value, file, or an existing key file) wins; a stored one that differs
 * is kept as `<name>.previous`, which is read as the previous key (see loadPreviousKey).
 * Returns the names of the keys it wrote.
 */
export async function moveLegacyKeys(db: Db, dataDir: string, sources: Record<string, KeySource>): Promise<string[]> {
  const [table] = await db.query<{ present: boolean }>("select to_regclass('app_secrets') is not null as present");
  if (!table?.present) return [];
  const rows = await db.query<{ name: string; value: string }>('select name, value from app_secrets');
  const moved: string[] = [];
  for (const row of rows) {
    const source = sources[row.name];
    if (!source) continue;
    const file = keyFile(dataDir, row.name);
    const current =
      source.value ??
      (source.file ? readFileSync(source.file, 'utf8').trim() : existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined);
    if (current === row.value) continue;
    const target = current === undefined ? file : `${file}.previous`;
    if (writeKeyFile(target, row.value)) moved.push(target === file ? row.name : `${row.name}.previous`);
  }
  return moved;
}
