// Each table has one owning room: only that room's files name it in SQL; other rooms call its
// service. The owners are declared beside each program's migrations (db/table-owners.json), so a
// new table without an owner fails too. Tests and the demo's seed files are left out: seeding writes
// fixtures the way a migration does.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SQL_NAME = /\b(?:from|join|into|update|delete\s+from)\s+([a-z_][a-z0-9_]*)\b/gi;
const COMMENT = /\/\*[\s\S]*?\*\/|(^|[^:'"`])\/\/.*$/gm;
const EXEMPT = /(\.test\.ts$|\.demo\.ts$|\/features\/demo\/|\/src\/test\/|\/src\/testing\/)/;

/** Violations for one program (`apps/server` or `apps/hub`) as `file:line: …` strings. */
export function tableOwnerProblems(root, app, files) {
  const problems = [];
  const owners = JSON.parse(readFileSync(join(root, app, 'src/db/table-owners.json'), 'utf8'));
  const migrations = join(root, app, 'src/db/migrations');
  const created = new Set();
  for (const f of readdirSync(migrations).filter((n) => n.endsWith('.sql'))) {
    for (const m of readFileSync(join(migrations, f), 'utf8').matchAll(/create table (?:if not exists )?([a-z_][a-z0-9_]*)/gi)) {
      created.add(m[1].toLowerCase());
    }
  }
  for (const table of [...created].sort()) {
    if (!(table in owners))
      problems.push(`table-has-one-owner: ${app}/src/db/table-owners.json names no owner for table ${table}`);
  }
  const room = new RegExp(`^${app}/src/features/([^/]+)/`);
  for (const file of files) {
    const m = room.exec(file);
    if (!m || EXEMPT.test(file) || !file.endsWith('.ts')) continue;
    const text = readFileSync(join(root, file), 'utf8').replace(
      COMMENT,
      (c, keep = '') => keep + c.slice(keep.length).replace(/[^\n]/g, ' '),
    );
    for (const hit of text.matchAll(SQL_NAME)) {
      const table = hit[1].toLowerCase();
      const owner = owners[table];
      if (!owner || owner === m[1] || !created.has(table)) continue;
      const line = text.slice(0, hit.index).split('\n').length;
      problems.push(`table-has-one-owner: ${file}:${line} names table ${table}, owned by features/${owner}/`);
    }
  }
  return problems;
}
