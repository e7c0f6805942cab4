import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';

const mailbox = new URL('./mailbox.mjs', import.meta.url).pathname;
const servers: Server[] = [];

async function listener(): Promise<number> {
  const server = createServer((socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** A free port: taken, then let go. */
async function freePort(): Promise<number> {
  const port = await listener();
  await new Promise((resolve) => servers.pop()?.close(resolve));
  return port;
}

/** Runs the mailbox until it exits, or kills it after `ms`. */
function runMailbox(smtpPort: number, httpPort: number, ms = 10_000): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [mailbox], {
    env: { ...process.env, MAILBOX_SMTP_PORT: String(smtpPort), MAILBOX_HTTP_PORT: String(httpPort) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('the end-to-end mailbox', () => {
  test('exits at once, saying so, when another process has its SMTP port', async () => {
    const smtp = await listener();
    const { code, stderr } = await runMailbox(smtp, await freePort());
    expect(code).toBe(1);
    expect(stderr).toContain(`127.0.0.1:${smtp} (SMTP) is in use by another process`);
  });

  test('exits at once, saying so, when another process has its HTTP port', async () => {
    const http = await listener();
    const { code, stderr } = await runMailbox(await freePort(), http);
    expect(code).toBe(1);
    expect(stderr).toContain(`127.0.0.1:${http} (HTTP) is in use by another process`);
  });
});
