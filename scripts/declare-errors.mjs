// Adds the error codes a test run saw each call answer to its declaration in packages/contracts.
//   LATCHKEY_UNDECLARED_ERRORS=/tmp/undeclared.tsv npx vitest run   # collects "name<TAB>code" lines
//   node scripts/declare-errors.mjs /tmp/undeclared.tsv               # writes them into `errors: [...]`
// The router fails a test when a call answers a code its declaration does not list (runtime http.ts),
// so this is how a new call's codes are first written down; review the diff before committing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = new URL('../packages/contracts/src/', import.meta.url).pathname;
const seen = new Map();
for (const line of readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean)) {
  const [name, code] = line.split('\t');
  seen.set(name, new Set([...(seen.get(name) ?? []), code]));
}
const left = new Set(seen.keys());
for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
  const path = join(dir, file);
  let text = readFileSync(path, 'utf8');
  for (const [name, codes] of seen) {
    const start = text.indexOf(`defineEndpoint({\n  name: '${name}',`);
    if (start < 0) continue;
    left.delete(name);
    const end = text.indexOf('\n});', start);
    const block = text.slice(start, end);
    const existing = block.match(/\n {2}errors: \[([^\]]*)\],/);
    const all = new Set([...(existing ? existing[1].split(',').map((c) => c.trim().replace(/'/g, '')) : []), ...codes]);
    all.delete('');
    const line = `\n  errors: [${[...all].map((c) => `'${c}'`).join(', ')}],`;
    const next = existing
      ? block.replace(existing[0], line)
      : block.replace(/(\n {2}auth: [^\n]*)(\n {2}access: [^\n]*)?/, (m) => `${m}${line}`);
    text = text.slice(0, start) + next + text.slice(end);
  }
  writeFileSync(path, text);
}
if (left.size > 0) console.error(`Not found in packages/contracts/src: ${[...left].join(', ')}`);
console.info(`${seen.size - left.size} declarations updated.`);
