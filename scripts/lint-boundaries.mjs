// The boundaries dependency-cruiser cannot hold by module edges alone, checked on its JSON output:
//   - no cycle between features (auth → security → auth is a cycle even when no single module loops);
//   - route files run no SQL and name no repository (they may reach one only through a service);
//   - every feature room is named after its domain: a contracts module of the same name, so a line's
//     room is one guess in all four workspaces (the few rooms that are not a domain are listed below);
//   - each table has one owning room (scripts/table-owners.mjs).
// Tests and test helpers are left out of the feature graph: a test seeding data through another
// feature's demo module is set-up, not a dependency of the product.
// Usage: node scripts/lint-boundaries.mjs [cruise-root…]; exits 1 and names each violation.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableOwnerProblems } from './table-owners.mjs';

const root = process.env.BOUNDARIES_ROOT ?? new URL('..', import.meta.url).pathname;
const targets = process.argv.slice(2).length ? process.argv.slice(2) : ['apps', 'packages'];
const FEATURE = /^apps\/(server|hub|web)\/src\/features\/([^/]+)\//;
const TEST = /(\.test\.tsx?$|\/src\/test\/|\/src\/testing\/)/;

const cruise = spawnSync(
  join(root, 'node_modules/.bin/depcruise'),
  [...targets, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', '--no-progress'],
  { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
if (!cruise.stdout) {
  console.error(cruise.stderr);
  process.exit(2);
}
const { modules } = JSON.parse(cruise.stdout);
const problems = [];

const featureOf = (path) => {
  const m = FEATURE.exec(path);
  return m ? `${m[1]}/${m[2]}` : null;
};
const edges = new Map();
for (const mod of modules) {
  const from = featureOf(mod.source);
  if (!from || TEST.test(mod.source)) continue;
  for (const dep of mod.dependencies) {
    const to = featureOf(dep.resolved);
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${mod.source} → ${dep.resolved}`);
  }
}

// Tarjan's strongly connected components: every component of more than one feature is a cycle.
let index = 0;
const stack = [];
const seen = new Map();
function connect(v) {
  const node = { index, low: index, onStack: true };
  index += 1;
  seen.set(v, node);
  stack.push(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!seen.has(w)) {
      connect(w);
      node.low = Math.min(node.low, seen.get(w).low);
    } else if (seen.get(w).onStack) node.low = Math.min(node.low, seen.get(w).index);
  }
  if (node.low !== node.index) return;
  const component = [];
  let w;
  do {
    w = stack.pop();
    seen.get(w).onStack = false;
    component.push(w);
  } while (w !== v);
  if (component.length < 2) return;
  const inside = new Set(component);
  const links = component.flatMap((a) => [...(edges.get(a) ?? [])].filter(([b]) => inside.has(b)).map(([, why]) => `    ${why}`));
  problems.push(`no-feature-cycle: ${component.sort().join(' ↔ ')}\n${links.join('\n')}`);
}
for (const v of edges.keys()) if (!seen.has(v)) connect(v);

// A route file names no repository and runs no SQL: routes → service → repository.
const SQL = /\.(query|exec)\s*[<(]|\bsql`|\w+Repository\b/;
for (const mod of modules) {
  if (!/\.routes\.ts$/.test(mod.source)) continue;
  const lines = readFileSync(join(root, mod.source), 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (SQL.test(line)) problems.push(`routes-without-sql: ${mod.source}:${i + 1}: ${line.trim()}`);
  });
}

// Rooms that are not a domain of their own, each with why.
const NOT_A_DOMAIN = {
  demo: 'the demo teams each program seeds',
  operator: "the server operator's commands (marking invoices paid), no console call",
  registrations: "the Hub's record of the servers registered with it",
  settings: "the console's settings screen, which gathers other domains' forms",
  users: "the server's console accounts, owned here and used by account, auth and admins",
  connector: "the Hub's connector call (contracts hub.ts)",
  health: "the Hub's health call (contracts hub.ts)",
};
const domains = new Set(
  readdirSync(join(root, 'packages/contracts/src'))
    .filter((f) => /^[a-z-]+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, '')),
);
const rooms = new Set(modules.map((mod) => featureOf(mod.source)).filter(Boolean));
for (const room of [...rooms].sort()) {
  const name = room.split('/')[1];
  if (!domains.has(name) && !(name in NOT_A_DOMAIN)) {
    problems.push(
      `room-names-a-domain: apps/${room.split('/')[0]}/src/features/${name}/ names no contracts module (packages/contracts/src/${name}.ts)`,
    );
  }
}

const sources = modules.map((mod) => mod.source);
for (const app of ['apps/server', 'apps/hub']) {
  if (targets.some((t) => app.startsWith(t) || t.startsWith(app))) problems.push(...tableOwnerProblems(root, app, sources));
}

for (const p of problems) console.error(`  error ${p}`);
if (problems.length) {
  console.error(`\n✘ ${problems.length} boundary violations`);
  process.exit(1);
}
console.info('✔ no feature cycles; route files run no SQL; every room names a domain; each table has one owner');
