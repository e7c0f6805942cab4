// Builds Latchkey's image from the Containerfile with podman, the base images first where they are
// missing (base.mjs). The layers are cached: a second build after a change to the sources runs
// the console's and programs' build again, not the dependencies' install.
//   node scripts/container/image.mjs [tag]          (default latchkey:latest)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildBaseImages } from './base.mjs';
import { podman, RUN_FLAGS } from './podman.mjs';

const root = new URL('../..', import.meta.url).pathname;

/** The CA file this machine's npm is configured with (`npm config get cafile`), if any. */
function npmCaFile() {
  const file = spawnSync('npm', ['config', 'get', 'cafile'], { encoding: 'utf8' }).stdout?.trim();
  return file && file !== 'null' && file !== 'undefined' ? file : undefined;
}

export function buildImage({ tag = 'latchkey:latest', log = console.info } = {}) {
  buildBaseImages({ log });
  log(`Building ${tag} from the Containerfile…`);
  // The install step reaches the npm registry through the machine's network, trusting what this
  // machine's Node or npm trusts (a network that inspects TLS has its own CA).
  const ca = process.env.NODE_EXTRA_CA_CERTS || npmCaFile();
  const secret = ca && existsSync(ca) ? ['--secret', `id=extra-ca,src=${ca}`] : [];
  podman(
    [
      'build',
      '--pull=never',
      '--format',
      'docker',
      '--network',
      'host',
      ...RUN_FLAGS,
      ...secret,
      '-t',
      tag,
      '-f',
      'Containerfile',
      '.',
    ],
    { cwd: root },
  );
  return tag;
}

/** The image's size as podman counts it (its layers, uncompressed), in bytes. */
export const imageSize = (tag) => Number(podman(['image', 'inspect', '--format', '{{.Size}}', tag]).trim());

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const tag = buildImage({ tag: process.argv[2] });
  console.info(`${tag}: ${(imageSize(tag) / 1e6).toFixed(0)} MB`);
}
