import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What every SIEM stand-in shares: a receiver's record of what it took and refused, the HTTPS
 * server the HTTP vendors' stand-ins run on, and the test certificate.
 */
/**
 * The faults a stand-in can play (one at a time): the address refusing connections (`outage`),
 * 429 with Retry-After, 503, an answer slower than the sender waits (`slow`, the events taken), a
 * connection reset while the body arrives (`reset`, nothing taken), the connection dropped after
 * the events were taken and before any answer (`drop`), and a certificate the Hub does not trust
 * (`tls`). What a stand-in takes during `slow` or `drop` is never confirmed to the sender.
 */
export type Fault = 'outage' | 'too_many_requests' | 'unavailable' | 'slow' | 'reset' | 'drop' | 'tls';

export interface Receiver {
  url: string;
  port: number;
  /** Every event id the stand-in took, duplicates included, in order. */
  received: string[];
  /** The ids the sender was told were taken (an answer it got, a connection closed cleanly): never twice for one id. */
  confirmed: string[];
  rejected: string[];
  down: boolean;
  fault: Fault | null;
  /** Plays `fault` from now on (null: healthy again); an outage closes the port, `tls` swaps the certificate. */
  setFault(fault: Fault | null): Promise<void>;
  /** Told of each confirmation as it is made (the bench times deliveries by it). */
  onConfirmed?: (ids: string[]) => void;
  /** When each 429 was answered (epoch ms): the sender must wait its Retry-After (1 s) before the next try. */
  throttled: number[];
  /** Requests (HTTP) or connections (syslog) taken so far. */
  requests: number;
  /** Milliseconds to wait before answering the n-th request (1-based), after taking its events: a slow destination. */
  delay?: (n: number) => number;
}

export type Tls = { key: string; cert: string };

/**
 * A self-signed certificate for 127.0.0.1 (openssl), and its PEM to trust as the Hub's SIEM_CA_FILE.
 * With `dir`, the one already there is reused (the e2e runner makes it, its workers read it).
 */
export function selfSignedCert(dir = mkdtempSync(join(tmpdir(), 'latchkey-siem-'))): Tls & { certFile: string } {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  if (existsSync(key) && existsSync(cert))
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8'), certFile: cert };
  mkdirSync(dir, { recursive: true });
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8'), certFile: cert };
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });

export type Answer = {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The ids this answer tells the sender were taken; by default, those the request added when it answered 2xx. */
  confirms?: string[];
};
type Handler = (req: IncomingMessage, body: Buffer, r: Receiver) => Answer;
/** How the vendor says "too many requests" and "unavailable" (its status, body and Retry-After). */
interface VendorAnswers {
  unavailable: Answer;
  tooManyRequests: Answer;
}

/** How long `slow` holds an answer: past any timeout a test gives the Hub. */
const SLOW_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What `slow` holds (answers, reads), let go when the fault ends: a server slow during the fault is
 * quick again after it. Answers `hold` (resolves after SLOW_MS or at the end of the fault) and
 * `wrap`, which makes a setFault let everything go when `slow` ends.
 */
export function slowness() {
  const held = new Set<() => void>();
  return {
    hold: () =>
      new Promise<void>((resolve) => {
        const release = () => {
          clearTimeout(timer);
          held.delete(release);
          resolve();
        };
        const timer = setTimeout(release, SLOW_MS);
        held.add(release);
      }),
    wrap:
      (setFault: (fault: Fault | null) => Promise<void>) =>
      async (fault: Fault | null): Promise<void> => {
        await setFault(fault);
        if (fault !== 'slow') for (const release of [...held]) release();
      },
  };
}

/** A certificate the Hub does not trust (made once): what `tls` swaps in. */
let untrusted: Tls | undefined;
const untrustedCert = () => {
  untrusted ??= selfSignedCert();
  return untrusted;
};

/**
 * The connection-level faults every stand-in shares: `outage` closes the listening port (and every
 * open connection), `tls` serves a certificate the Hub does not trust (open connections are cut so
 * none is reused). Answers `setFault` for the receiver.
 */
export function faultControl(
  server: import('node:net').Server,
  r: Pick<Receiver, 'fault' | 'port'>,
  tls: Tls | null,
  /** Told of each connection the stand-in itself cuts, before it is cut. */
  cutting: (socket: Socket) => void = () => undefined,
): (fault: Fault | null) => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const cutAll = () => {
    for (const socket of sockets) {
      cutting(socket);
      socket.destroy();
    }
  };
  return async (fault) => {
    const was = r.fault;
    r.fault = fault;
    if (was === 'outage' && fault !== 'outage') await new Promise<void>((resolve) => server.listen(r.port, '127.0.0.1', resolve));
    if (was === 'tls' && fault !== 'tls' && tls) (server as import('node:tls').Server).setSecureContext(tls);
    if (fault === 'tls' && tls) {
      (server as import('node:tls').Server).setSecureContext(untrustedCert());
      cutAll();
    }
    if (fault === 'outage' && was !== 'outage') {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      cutAll();
      await closed;
    }
  };
}

/** A receiver that has taken nothing yet, not listening yet. */
export function newReceiver(): Receiver {
  return {
    url: '',
    port: 0,
    received: [],
    confirmed: [],
    rejected: [],
    down: false,
    fault: null,
    setFault: async () => undefined,
    throttled: [],
    requests: 0,
  };
}

/** Listens on 127.0.0.1 (`port`, or any free one), without holding the process open, and notes the address on `r`. */
export async function serve(
  server: import('node:net').Server,
  r: Pick<Receiver, 'port' | 'url'>,
  port: number,
  scheme: string,
): Promise<void> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  server.unref();
  r.port = (server.address() as { port: number }).port;
  r.url = `${scheme}://127.0.0.1:${r.port}`;
}

export async function listen(
  tlsOptions: Tls | null,
  handle: Handler,
  port = 0,
  vendor: VendorAnswers = {
    unavailable: { status: 503, body: { error: 'Service Unavailable' } },
    tooManyRequests: { status: 429, body: { error: 'Too Many Requests' } },
  },
): Promise<Receiver> {
  const r = newReceiver();
  /**
   * An answer confirms its events only once the sender has surely read it: when its connection
   * carries the next request, or is closed by this side (idle, or cut by a fault), or is still open.
   * A sender that gave up (its timeout) closes the connection itself, and what it was answered
   * then confirms nothing: on a stalled machine an answer can be written after the sender's deadline.
   */
  const committed: string[] = [];
  const connections = new Map<Socket, { pending: string[]; closedByUs: boolean }>();
  const connectionOf = (req: IncomingMessage) => {
    const raw = (req.socket as Socket & { _parent?: Socket })._parent ?? req.socket;
    let c = connections.get(raw);
    if (!c) {
      const state = { pending: [] as string[], closedByUs: false };
      c = state;
      connections.set(raw, state);
      // The server's own keep-alive timeout.
      req.socket.on('timeout', () => {
        state.closedByUs = true;
      });
      raw.on('close', () => {
        connections.delete(raw);
        if (state.closedByUs) committed.push(...state.pending);
      });
    }
    return c;
  };
  Object.defineProperty(r, 'confirmed', {
    get: () => [...committed, ...[...connections.values()].flatMap((c) => c.pending)],
  });
  const write = (res: ServerResponse, out: Answer) => {
    const empty = out.status === 204 || out.body === null;
    res.writeHead(out.status, { ...(empty ? {} : { 'content-type': 'application/json' }), ...out.headers });
    res.end(empty ? undefined : JSON.stringify(out.body));
  };
  const slow = slowness();
  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const connection = connectionOf(req);
    // A new request on the connection: the sender read the answer before it.
    committed.push(...connection.pending.splice(0));
    const fault = r.fault ?? (r.down ? 'unavailable' : null);
    if (fault === 'reset') {
      // The connection is cut while the body arrives: nothing of it is taken.
      req.once('data', () => req.socket.destroy());
      req.once('end', () => req.socket.destroy());
      return;
    }
    const body = await readBody(req);
    const n = ++r.requests;
    if (fault === 'unavailable') return write(res, vendor.unavailable);
    if (fault === 'too_many_requests') {
      r.throttled.push(Date.now());
      return write(res, { ...vendor.tooManyRequests, headers: { 'retry-after': '1', ...vendor.tooManyRequests.headers } });
    }
    const before = r.received.length;
    const out = handle(req, body, r);
    const confirms = out.confirms ?? (out.status >= 200 && out.status < 300 ? r.received.slice(before) : []);
    if (fault === 'drop') return req.socket.destroy();
    if (fault === 'slow') await slow.hold();
    const wait = r.delay?.(n) ?? 0;
    if (wait > 0) await sleep(wait);
    if (out.status >= 400) r.rejected.push(`${out.status} ${JSON.stringify(out.body)}`);
    // An answer the sender stopped waiting for confirms nothing.
    if (fault !== 'slow' && !req.socket.destroyed) {
      connection.pending.push(...confirms);
      if (confirms.length) r.onConfirmed?.(confirms);
    }
    write(res, out);
  };
  const server = tlsOptions
    ? createHttpsServer(tlsOptions, (q, s) => void onRequest(q, s))
    : createHttpServer((q, s) => void onRequest(q, s));
  r.setFault = slow.wrap(
    faultControl(server, r, tlsOptions, (socket) => {
      const c = connections.get(socket);
      if (c) c.closedByUs = true;
    }),
  );
  await serve(server, r, port, tlsOptions ? 'https' : 'http');
  return r;
}

export const lines = (b: Buffer) => b.toString('utf8').split('\n').filter(Boolean);
