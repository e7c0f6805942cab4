// The event-log bench's SIEM destination (scripts/bench-events.ts): a Splunk HTTP Event Collector
// stand-in over TLS that checks what HEC checks (token, channel, each event's time/host/source/
// sourcetype) and answers indexer acknowledgement, acking a batch on the first poll after it arrived.
// For each event it keeps when it was acknowledged: lag = acknowledged − recorded_at.

import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:https';

const TOKEN = 'b3f5c1d2-7a8e-4f90-a1b2-c3d4e5f60718';

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

export async function hecReceiver(tls: { key: string; cert: string }) {
  let nextAck = 1;
  const pending = new Map<number, { recorded: number[]; ids: string[] }>();
  let lags: number[] = [];
  let unique = new Set<string>();
  let events = 0;
  let lastAckAt = 0;
  let rejected = 0;
  const server = createServer(tls, (req, res) => {
    void readBody(req).then((body) => {
      const answer = (status: number, payload: unknown) => {
        if (status >= 400) rejected++;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.headers.authorization !== `Splunk ${TOKEN}`) return answer(401, { text: 'Invalid token', code: 4 });
      if (!req.headers['x-splunk-request-channel']) return answer(400, { text: 'Data channel is missing', code: 10 });
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      if (path === '/services/collector/ack') {
        const now = Date.now();
        const acks: Record<string, boolean> = {};
        for (const id of (JSON.parse(body) as { acks: number[] }).acks) {
          const batch = pending.get(id);
          acks[String(id)] = Boolean(batch);
          if (!batch) continue;
          pending.delete(id);
          for (const r of batch.recorded) lags.push(now - r);
          for (const e of batch.ids) unique.add(e);
          events += batch.ids.length;
          lastAckAt = performance.now();
        }
        return answer(200, { acks });
      }
      if (path !== '/services/collector/event') return answer(404, { text: 'Not found', code: 404 });
      const batch = { recorded: [] as number[], ids: [] as string[] };
      for (const text of body.split('\n')) {
        if (!text) continue;
        const e = JSON.parse(text) as {
          time?: unknown;
          host?: unknown;
          source?: unknown;
          sourcetype?: unknown;
          event?: { id?: string; recorded_at?: string };
        };
        if (
          typeof e.time !== 'number' ||
          typeof e.host !== 'string' ||
          !e.source ||
          !e.sourcetype ||
          !e.event?.id ||
          !e.event.recorded_at
        )
          return answer(400, { text: 'Invalid data format', code: 6 });
        batch.ids.push(e.event.id);
        batch.recorded.push(Date.parse(e.event.recorded_at));
      }
      const ackId = nextAck++;
      pending.set(ackId, batch);
      return answer(200, { text: 'Success', code: 0, ackId });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    port,
    token: TOKEN,
    reset() {
      lags = [];
      unique = new Set();
      events = 0;
      lastAckAt = 0;
    },
    async until(n: number, ms: number) {
      const end = Date.now() + ms;
      while (unique.size < n && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      if (unique.size < n)
        throw new Error(`the receiver has ${unique.size} of ${n} events after ${ms} ms (${rejected} rejected)`);
    },
    stats() {
      const sorted = [...lags].sort((a, b) => a - b);
      return {
        events,
        unique: unique.size,
        lagP50: pct(sorted, 0.5),
        lagP99: pct(sorted, 0.99),
        lagMax: sorted.at(-1) ?? 0,
        lastAckAt,
        rejected,
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
