import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HUB_URL, SERVER_URL } from './env.ts';

const root = resolve(import.meta.dirname, '../..');

/** Extra Hubs a spec starts and stops itself: ports 10+ above the suite's Hub's neighbour (E2E_PORT_BASE + 10…19). */
export const extraHubPort = (n: number): number => Number(new URL(HUB_URL).port) - 1 + 10 + n;

export interface ExtraHub {
  url: string;
  /** What the Hub's operator does for a team: `npm run hub-cli -- setup-key --team <slug>`. */
  setupKey(teamSlug: string): string;
  start(): Promise<void>;
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * A real Hub process on its own port and embedded database, started and stopped by the test
 * (to see the console handle a Hub that goes away). Its database survives a stop.
 */
export function extraHub(n: number, version: string): ExtraHub {
  const port = extraHubPort(n);
  const url = `http://127.0.0.1:${port}`;
  const data = mkdtempSync(join(tmpdir(), 'latchkey-e2e-hub-'));
  let child: ChildProcess | null = null;

  async function waitReady(): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child?.exitCode !== null) throw new Error(`extra hub ${port} exited with ${child?.exitCode}`);
      const ok = await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`extra hub ${port} did not become ready`);
  }

  return {
    url,
    setupKey: (teamSlug) =>
      execFileSync(join(root, 'node_modules/.bin/tsx'), ['apps/hub/src/cli.ts', 'setup-key', '--team', teamSlug], {
        cwd: root,
        // The same data directory as the running Hub: the CLI reads the setup secret it generated there.
        env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: data, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .toString()
        .trim(),
    async start() {
      child = spawn(join(root, 'node_modules/.bin/tsx'), ['apps/hub/src/main.ts'], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATA_DIR: data,
          HUB_VERSION: version,
          ALLOWED_ORIGINS: SERVER_URL,
          LOG_LEVEL: 'warn',
        },
      });
      await waitReady();
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      await new Promise<void>((done) => {
        running.once('exit', () => done());
        running.kill('SIGTERM');
      });
    },
    async dispose() {
      await this.stop();
      rmSync(data, { recursive: true, force: true });
    },
  };
}
