// Measures how the code is laid out, for the architecture's before-and-after: import arrows that run
// back up a layer (per app), source files over 300 and 400 lines, feature rooms per app, and the
// code comments that cite an issue number instead of saying what the code does.
// Usage: node scripts/architecture-metrics.mjs [repository root].
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2] ?? new URL('..', import.meta.url).pathname;
const TEST = /(\.test\.tsx?$|\/src\/test\/|\/src\/testing\/)/;
const cruise = spawnSync(
  join(root, 'node_modules/.bin/depcruise'),
  ['apps', 'packages', '--config', '.dependency-cruiser.cjs', '--output-type', 'json', '--no-progress'],
  { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
const { modules } = JSON.parse(cruise.stdout);

// Layers from the top down; an import from a lower layer to a higher one runs back up.
const programLayers = (app) => [
  new RegExp(`^apps/${app}/src/(app|main|cli)\\.ts$`),
  /\.routes\.ts$/,
  new RegExp(`\\.service\\.ts$|^apps/${app}/src/features/`),
  /\.repository\.ts$/,
  new RegExp(`^apps/${app}/src/http/`),
  new RegExp(`^apps/${app}/src/platform/`),
];
const LAYERS = {
  web: [/^apps\/web\/src\/(app|main\.tsx)/, /^apps\/web\/src\/features\//, /^apps\/web\/src\/(lib|components)\//],
  server: programLayers('server'),
  hub: programLayers('hub'),
};
const layerOf = (app, path) => LAYERS[app].findIndex((re) => re.test(path));
const report = {};
for (const app of Object.keys(LAYERS)) {
  const arrows = [];
  for (const mod of modules) {
    // A room's index.ts only re-exports: its importers' arrows are the ones that count.
    if (!mod.source.startsWith(`apps/${app}/src/`) || TEST.test(mod.source) || mod.source.endsWith('/index.ts')) continue;
    const from = layerOf(app, mod.source);
    for (const dep of mod.dependencies) {
      const to = layerOf(app, dep.resolved);
      if (from >= 0 && to >= 0 && to < from) arrows.push(`${mod.source} → ${dep.resolved}`);
    }
  }
  report[app] = arrows;
}

const sources = modules
  .map((m) => m.source)
  .filter((p) => /^(apps|packages)\/[^/]+\/src\/.*\.tsx?$/.test(p) && !TEST.test(p) && !p.includes('/locales/'));
const lines = (p) => readFileSync(join(root, p), 'utf8').split('\n').length - 1;
const big = sources
  .map((p) => [p, lines(p)])
  .filter(([, n]) => n > 300)
  .sort((a, b) => b[1] - a[1]);
const issueMentions = sources.filter((p) => /\bissues? \d+/i.test(readFileSync(join(root, p), 'utf8')));

for (const [app, arrows] of Object.entries(report)) {
  console.info(`arrows back up, ${app}: ${arrows.length}`);
  for (const a of arrows) console.info(`  ${a}`);
}
console.info(`source files over 300 lines: ${big.length}; over 400: ${big.filter(([, n]) => n > 400).length}`);
for (const [p, n] of big) console.info(`  ${n} ${p}`);
console.info(`source files citing an issue number: ${issueMentions.length}`);
for (const app of ['server', 'hub', 'web']) {
  console.info(
    `rooms, ${app}: ${readdirSync(join(root, `apps/${app}/src/features`))
      .sort()
      .join(' ')}`,
  );
}
