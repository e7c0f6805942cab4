import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What every SIEM stand-in shares: a receiver's record of what it took and refused, the HTTPS
 * server the HTTP vendors' stand-ins run on, and the test certificate.
 */
export interface Receiver {
  url: string;
  port: number;
  /** Every event id the stand-in took, duplicates included, in order. */
  received: string[];
  rejected: string[];
  down: boolean;
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

export const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });

export type Answer = { status: number; body: unknown; headers?: Record<string, string> };
export type Handler = (req: IncomingMessage, body: Buffer, r: Receiver) => Answer;

/** The answer while `down`: each vendor's stand-in says "unavailable" in its own words. */
const DOWN: Answer = { status: 503, body: { text: 'Server is busy', code: 9 } };

export async function listen(tlsOptions: Tls | null, handle: Handler, port = 0, down: Answer = DOWN): Promise<Receiver> {
  const r: Receiver = { url: '', port: 0, received: [], rejected: [], down: false, requests: 0 };
  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const n = ++r.requests;
    const out = r.down ? down : handle(req, body, r);
    const wait = r.delay?.(n) ?? 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (out.status >= 400 && !r.down) r.rejected.push(`${out.status} ${JSON.stringify(out.body)}`);
    const empty = out.status === 204 || out.body === null;
    res.writeHead(out.status, { ...(empty ? {} : { 'content-type': 'application/json' }), ...out.headers });
    res.end(empty ? undefined : JSON.stringify(out.body));
  };
  const server = tlsOptions
    ? createHttpsServer(tlsOptions, (q, s) => void onRequest(q, s))
    : createHttpServer((q, s) => void onRequest(q, s));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  server.unref();
  r.port = (server.address() as { port: number }).port;
  r.url = `${tlsOptions ? 'https' : 'http'}://127.0.0.1:${r.port}`;
  return r;
}

export const lines = (b: Buffer) => b.toString('utf8').split('\n').filter(Boolean);
