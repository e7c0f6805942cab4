// The JS the sign-in route loads up front: index.html's entry and everything it imports
// statically (Vite's manifest), gzipped. Fails above the budget of issue 2.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 120;
const dist = new URL('../apps/web/dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

export function initialChunks() {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  return [...seen].map((key) => manifest[key].file);
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
