// How podman runs on these machines (STACK.md): Debian's podman 4.3 with runc (crun fails here)
// and explicit limits. Every podman call of the scripts and tests goes through here.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RUNC = '/usr/sbin/runc';
const LIMITS = ['--ulimit', 'nofile=4096:4096', '--ulimit', 'nproc=4096:4096'];
/** For `podman run` and `podman build`. */
export const RUN_FLAGS = ['--runtime', RUNC, ...LIMITS];

/** Why podman cannot run here, or null when it can (installed, runc beside it, its storage and runtime answer). */
export function podmanMissing() {
  const version = spawnSync('podman', ['version', '--format', '{{.Client.Version}}'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) return 'podman is not installed (apt-get install -y podman runc mmdebstrap)';
  if (!existsSync(RUNC)) return 'runc is not installed (apt-get install -y runc)';
  const info = spawnSync('podman', ['--runtime', RUNC, 'info', '--format', '{{.Host.OCIRuntime.Name}}'], { encoding: 'utf8' });
  if (info.status !== 0) return `podman cannot run here (${info.stderr.trim().split('\n')[0]})`;
  return null;
}

/** Runs podman; throws with its output when it fails. */
export function podman(args, options = {}) {
  const result = spawnSync('podman', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0)
    throw new Error(`podman ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout ?? ''}${result.stderr ?? ''}`);
  return result.stdout ?? '';
}

/** A containers.conf for `podman kube play`, which takes no runtime or limit flags. */
export function kubeConf() {
  const file = join(mkdtempSync(join(tmpdir(), 'latchkey-podman-')), 'containers.conf');
  writeFileSync(file, '[containers]\ndefault_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]\n\n[engine]\nruntime = "runc"\n');
  return file;
}
