import type { Socket } from 'node:net';
import { outboundConnect } from '@latchkey/runtime';
import { leefLine } from './leef.ts';
import { cutByBytes, DeliveryError, post, type SenderContext, type SiemConfig, sendParts, str } from './sender-http.ts';

/**
 * IBM QRadar: LEEF 2.0 lines (siem-leef.ts) by either of its log source protocols.
 *
 * - HTTP Receiver (an https:// address): each POST holds events one per line; the log source's
 *   Message Pattern `<110>1 ` tells QRadar where each event starts. QRadar answers the POST, so
 *   a batch counts as delivered when it answered 2xx.
 * - Syslog over TLS (RFC 5425) or TCP (RFC 6587), octet-counted: syslog has no acknowledgement, so
 *   a batch counts as delivered only when the connection closed cleanly after the collector read
 *   to its end: our side ended (TLS close_notify, then FIN) once every byte was handed over, and
 *   the collector closed its side after that, without an error. A reset, an error, a collector
 *   that closes first, or one that does not close in time fails the batch, which is sent again:
 *   at least once, duplicates carrying the same `eventId` for QRadar to de-duplicate on.
 */
type QradarEvent = Parameters<typeof leefLine>[0];

const MAX_REQUEST_BYTES = 1_000_000;

export async function qradar(events: QradarEvent[], c: SiemConfig, ctx: SenderContext): Promise<void> {
  const lines = events.map((e) => ({ seq: e.seq, line: leefLine(e, str(c, 'log_source_identifier')) }));
  const url = new URL(str(c, 'url'));
  if (url.protocol === 'https:') return httpReceiver(lines, url, c, ctx);
  const frames = Buffer.concat(
    lines.map(({ line }) => {
      const msg = Buffer.from(line);
      return Buffer.concat([Buffer.from(`${msg.length} `), msg]);
    }),
  );
  return syslog(frames, url, c, ctx);
}

async function httpReceiver(lines: { seq: number; line: string }[], url: URL, c: SiemConfig, ctx: SenderContext) {
  const parts = cutByBytes(lines, (l) => l.line, { max: MAX_REQUEST_BYTES, join: '\n', close: '\n' });
  await sendParts(parts, (body) =>
    post(ctx, url.toString(), {
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body,
      insecure: c.allow_unverified_certificate === true,
    }),
  );
}

async function syslog(frames: Buffer, url: URL, c: SiemConfig, ctx: SenderContext) {
  let socket: Socket;
  try {
    socket = await outboundConnect(
      {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: Number(url.port),
        tls: url.protocol === 'tls:',
        insecureTls: c.allow_unverified_certificate === true,
        ...(ctx.ca ? { ca: ctx.ca } : {}),
      },
      ctx.policy,
    );
  } catch (error) {
    throw new DeliveryError(error instanceof Error ? error.message : 'Could not connect.', true);
  }
  await closedCleanly(socket, frames, ctx.policy.timeoutMs);
}

/** Writes `frames`, ends our side and waits for the collector to close its own after reading them. */
function closedCleanly(socket: Socket, frames: Buffer, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let handedOver = false;
    let peerEnded = false;
    let settled = false;
    const settle = (problem: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!problem) return resolve();
      socket.destroy();
      reject(new DeliveryError(problem, false));
    };
    const timer = setTimeout(
      () => settle(`The syslog collector did not close the connection within ${timeoutMs} ms; the batch is sent again.`),
      timeoutMs,
    );
    socket.on('error', (error: NodeJS.ErrnoException) =>
      settle(`The syslog connection broke (${error.code ?? 'error'}); the batch is sent again.`),
    );
    // A collector sends nothing; whatever it does is read so its close can arrive.
    socket.on('data', () => undefined);
    socket.on('finish', () => {
      handedOver = true;
    });
    socket.on('end', () => {
      peerEnded = true;
      if (!handedOver) settle('The syslog collector closed the connection before taking the whole batch; it is sent again.');
    });
    socket.on('close', (hadError) => {
      if (hadError || !handedOver || !peerEnded)
        settle('The syslog connection closed before the batch was taken; it is sent again.');
      else settle(null);
    });
    socket.end(frames);
  });
}
