import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { pollUntil } from './siem-hub.ts';

/**
 * A real Hub process for tests that kill it mid-work (SIGKILL) and start it again on the same
 * database: what a run leased, queued or half-sent must then be taken over, not lost nor doubled.
 */
const root = resolve(import.meta.dirname, '../../../..');

/** A port free on 127.0.0.1 a moment ago, for the Hub to listen on. */
export const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

/** Checks `check` every 50 ms until it holds; throws once `ms` have passed. */
export const until = (check: () => boolean | Promise<boolean>, what: string, ms: number) =>
  pollUntil(check, { ms, stepMs: 50, what });

/** The Hub as `npm start` runs it (node with tsx as a loader, so the pid killed is the Hub's own). */
function hubProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/hub/src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  const exited = new Promise<string>((r) => child.on('exit', (code, signal) => r(signal ?? String(code))));
  return { child, exited, stderr: () => stderr };
}

/**
 * Starts a Hub on `env` (its PORT on 127.0.0.1), waits until it is ready, runs `meanwhile`, then
 * ends it with `signal` and returns how it exited (the signal's name, or its exit code). A Hub
 * still running after a failure is killed. `ms` bounds the wait for readiness.
 */
export async function runHub(
  env: Record<string, string> & { PORT: string },
  meanwhile: () => Promise<void>,
  signal: 'SIGKILL' | 'SIGTERM',
  ms: number,
): Promise<string> {
  const url = `http://127.0.0.1:${env.PORT}`;
  const hub = hubProcess(env);
  try {
    await until(
      async () => {
        if (hub.child.exitCode !== null) throw new Error(`the Hub exited: ${hub.stderr()}`);
        return fetch(`${url}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
      },
      'the Hub to be ready',
      ms,
    );
    await meanwhile();
    hub.child.kill(signal);
    return await hub.exited;
  } finally {
    if (hub.child.exitCode === null) hub.child.kill('SIGKILL');
  }
}
