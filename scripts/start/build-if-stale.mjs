// Builds the console, server and Hub when any source is newer than what was built.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnGroup } from './process-group.mjs';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const BUILT = ['apps/web/dist/index.html', 'apps/server/dist/main.mjs', 'apps/hub/dist/main.mjs'];

export function buildIsStale(root) {
  const builtAt = (file) => (existsSync(join(root, file)) ? statSync(join(root, file)).mtimeMs : 0);
  const sourcesAt = Math.max(
    ...['apps/web/src', 'apps/server/src', 'apps/hub/src', 'packages'].map((d) => newestMtime(join(root, d))),
  );
  return sourcesAt > Math.min(...BUILT.map(builtAt));
}

export const builtOnce = (root) => BUILT.every((file) => existsSync(join(root, file)));

/** `npm run build`, its output shown as it comes; the group is returned so that Ctrl-C can stop it. */
export function build(root) {
  return spawnGroup('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}
