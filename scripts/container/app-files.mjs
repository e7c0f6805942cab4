// What the image's runtime stage holds: the built programs (apps/*/dist), the built console, the
// image's command (latchkey.mjs), and of node_modules only the files the programs load, as traced
// from their imports by @vercel/nft (no dev dependency, type, README or unused build reaches the image).
//   node scripts/container/app-files.mjs <out dir>
import { cpSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { nodeFileTrace } from '@vercel/nft';

const root = new URL('../..', import.meta.url).pathname;
const out = process.argv[2];
if (!out) throw new Error('usage: node scripts/container/app-files.mjs <out dir>');

const PROGRAMS = ['apps/server/dist/main.mjs', 'apps/server/dist/cli.mjs', 'apps/hub/dist/main.mjs', 'apps/hub/dist/cli.mjs'];
const BUILT = ['apps/server/dist', 'apps/hub/dist', 'apps/web/dist'];
// Loaded through createRequire (its Node build), which the trace does not follow: traced from its entry.
const REQUIRED = [createRequire(join(root, 'apps/server/package.json')).resolve('pdfkit')];

const walk = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );

const { fileList, warnings } = await nodeFileTrace([...PROGRAMS.map((program) => join(root, program)), ...REQUIRED], {
  base: root,
});
// Optional packages of other platforms and runtimes (argon2's, pg's) are expectedly absent.
const unexpected = [...warnings].filter((warning) => !/^Failed to resolve dependency|^Cannot find module/.test(warning.message));
for (const warning of unexpected) console.warn(warning.message);

const files = new Set([...fileList, ...BUILT.flatMap(walk)].map((file) => relative(root, join(root, file))));
let copied = 0;
for (const file of files) {
  if (lstatSync(join(root, file)).isDirectory()) continue;
  mkdirSync(dirname(join(out, file)), { recursive: true });
  cpSync(join(root, file), join(out, file), { dereference: true });
  copied++;
}
cpSync(join(root, 'scripts/container/latchkey.mjs'), join(out, 'latchkey.mjs'));
console.info(`${copied} files for the image in ${out}`);
