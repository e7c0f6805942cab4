// Migrations expand, then contract: during a rolling update the previous release's instances run
// on the new schema, so a migration may add (tables, nullable columns, columns with a default,
// indexes) but not take away or reshape what the previous release reads and writes. A contracting
// statement is allowed only in a migration that says so in its first line,
//   -- contract: <what goes>; unused since release <version>
// written once no running release uses it (docs/operations.md, "Upgrades").
// Usage: node scripts/lint-migrations.mjs; exits 1 and names each statement.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The migrations written before this rule, by program: each release so far upgraded with a restart. */
const BEFORE_THE_RULE = { server: '0027', hub: '0016' };

const CONTRACTING = [
  [/\bdrop\s+table\b/i, 'drops a table'],
  [/\bdrop\s+column\b/i, 'drops a column'],
  [/\brename\s+column\b/i, 'renames a column'],
  [/\balter\s+table\s+(if\s+exists\s+)?[\w.]+\s+rename\s+to\b/i, 'renames a table'],
  [/\balter\s+column\s+\w+\s+(set\s+data\s+)?type\b/i, "changes a column's type"],
  [/\balter\s+column\s+\w+\s+set\s+not\s+null\b/i, 'makes a column required'],
  [
    /\badd\s+column\s+(if\s+not\s+exists\s+)?\w+\s+[^,;]*\bnot\s+null\b(?![^,;]*\bdefault\b)/i,
    'adds a required column without a default',
  ],
];

/** Problems of one migration's text, as `file: statement (why)` strings. */
export function migrationProblems(file, text) {
  if (/^--\s*contract:\s*\S/.test(text)) return [];
  const code = text.replace(/--.*$/gm, '');
  return CONTRACTING.filter(([pattern]) => pattern.test(code)).map(
    ([pattern, why]) =>
      `expand-then-contract: ${file}: ${code.match(pattern)[0].trim()} (${why}; the previous release still runs on this schema during an update)`,
  );
}

export function lintMigrations(root) {
  const problems = [];
  for (const [program, last] of Object.entries(BEFORE_THE_RULE)) {
    const dir = join(root, 'apps', program, 'src/db/migrations');
    for (const name of readdirSync(dir)
      .filter((n) => n.endsWith('.sql') && n.slice(0, 4) > last)
      .sort()) {
      problems.push(...migrationProblems(`apps/${program}/src/db/migrations/${name}`, readFileSync(join(dir, name), 'utf8')));
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = lintMigrations(process.env.MIGRATIONS_ROOT ?? new URL('..', import.meta.url).pathname);
  for (const p of problems) console.error(`  error ${p}`);
  if (problems.length) {
    console.error(`\n✘ ${problems.length} contracting migration statements`);
    process.exit(1);
  }
  console.info('✔ migrations expand only (or say what they contract)');
}
