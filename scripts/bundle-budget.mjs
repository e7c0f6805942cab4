// The JS the sign-in route loads up front: index.html's entry and everything it imports
// statically (Vite's manifest), gzipped. Fails above the budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 120;
const dist = new URL('../apps/web/dist/', import.meta.url).pathname;
// Read when asked: `npm run bench` builds first.
const readManifest = () => JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

/** Manifest keys loaded with `roots`: the roots and everything they import statically. */
function closure(manifest, roots) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
  };
  for (const key of roots) visit(key);
  return seen;
}

const entries = (manifest) => Object.keys(manifest).filter((key) => manifest[key].isEntry);

export function initialChunks() {
  const manifest = readManifest();
  return [...closure(manifest, entries(manifest))].map((key) => manifest[key].file);
}

/** Each lazily loaded screen's source and the files it adds to what the first page loaded. */
export function screenChunks() {
  const manifest = readManifest();
  const initial = closure(manifest, entries(manifest));
  return Object.keys(manifest)
    .filter((key) => manifest[key].isDynamicEntry && key.includes('/features/'))
    .map((key) => ({
      screen: key.replace(/^.*\/features\//, '').replace(/\.tsx?$/, ''),
      files: [...closure(manifest, [key])].filter((k) => !initial.has(k)).map((k) => manifest[k].file),
    }));
}

export function gzipKb(file) {
  return gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = initialChunks();
  const total = files.reduce((sum, f) => sum + gzipKb(f), 0);
  for (const f of files) console.info(`  ${gzipKb(f).toFixed(1).padStart(6)} KB  ${f}`);
  console.info(`sign-in route initial JS: ${total.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)`);
  if (total > BUDGET_KB) {
    console.error('bundle budget exceeded');
    process.exit(1);
  }
}
