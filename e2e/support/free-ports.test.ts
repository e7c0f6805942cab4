import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { assertPortsFree } from './free-ports.ts';

const root = new URL('../..', import.meta.url).pathname;
const servers: Server[] = [];

/** Another process's listener (any port when `port` is 0), dropping whatever connects. */
async function occupy(port = 0): Promise<number> {
  const server = createServer((socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe("the end-to-end suite's ports", () => {
  test('a port another process listens on is refused, named with its use; free ones pass', async () => {
    const taken = await occupy();
    await expect(
      assertPortsFree([
        { port: taken, use: "the mailbox's SMTP" },
        { port: 0, use: 'any free port' },
      ]),
    ).rejects.toThrow(`127.0.0.1:${taken} (the mailbox's SMTP)`);
    await expect(assertPortsFree([{ port: 0, use: 'any free port' }])).resolves.toBeUndefined();
  });

  test('the suite refuses to start when one is taken, before any of its servers starts', async () => {
    // A block of ports for the suite (E2E_PORT_BASE) whose SMTP port (base + 2) another process holds.
    const base = (await occupy()) - 2;
    const run = spawnSync(join(root, 'node_modules/.bin/playwright'), ['test', '-c', 'e2e/playwright.config.ts', '--list'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, E2E_PORT_BASE: String(base) },
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`127.0.0.1:${base + 2} (the mailbox's SMTP)`);
    expect(run.stdout).not.toContain('Total:');
  }, 90_000);
});
