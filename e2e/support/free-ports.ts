import { createServer } from 'node:net';
import { HUB_URL, MAILBOX_HTTP_PORT, MAILBOX_SMTP_PORT, SERVER_URL } from './env.ts';
import { extraHubPort } from './extra-hub.ts';
import { SENTINEL_INGESTION_PORT, SENTINEL_LEGACY_PORT } from './siem.ts';

interface SuitePort {
  port: number;
  use: string;
}

/** Every fixed port the suite listens on: its own servers, the extra Hubs and the Sentinel receivers specs start. */
export function suitePorts(): SuitePort[] {
  return [
    { port: Number(new URL(SERVER_URL).port), use: 'the server' },
    { port: Number(new URL(HUB_URL).port), use: 'the Hub' },
    { port: MAILBOX_SMTP_PORT, use: "the mailbox's SMTP" },
    { port: MAILBOX_HTTP_PORT, use: "the mailbox's HTTP" },
    ...Array.from({ length: 10 }, (_, n) => ({ port: extraHubPort(n), use: `extra Hub ${n}` })),
    { port: SENTINEL_LEGACY_PORT, use: "Sentinel's Data Collector receiver" },
    { port: SENTINEL_INGESTION_PORT, use: "Sentinel's Logs Ingestion receiver" },
  ];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Refuses to go on when another process listens on one of `ports`: the suite's servers would fail
 * late, or, worse, the programs would talk to that process (their sign-in codes mailed to another
 * SMTP server, and every spec waiting for a code).
 */
export async function assertPortsFree(ports: SuitePort[]): Promise<void> {
  const taken: SuitePort[] = [];
  for (const p of ports) if (!(await canListen(p.port))) taken.push(p);
  if (!taken.length) return;
  const list = taken.map((p) => `  127.0.0.1:${p.port} (${p.use})`).join('\n');
  throw new Error(
    `The end-to-end suite's ports are taken by another process:\n${list}\n` +
      "Stop that process, or move all of the suite's ports with E2E_PORT_BASE=<n> (it uses <n> to <n>+21).",
  );
}
