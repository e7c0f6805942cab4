import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import tls from 'node:tls';
import { checkedAddress } from './outbound-addresses.ts';
import { pooledAgent } from './outbound-agents.ts';
import { OutboundError, type OutboundPolicy } from './outbound-policy.ts';
import { tracedCall } from './tracing.ts';

/**
 * The one way the programs fetch a URL a user gave them (a Hub's address today; SSO metadata, SIEM
 * destinations and webhooks later), against server-side request forgery: the name is resolved once,
 * every address it resolves to is checked, and the connection goes to that checked address (no
 * second lookup a DNS rebinding could answer differently). No redirects, a deadline, a size limit,
 * and errors that say what kind of failure it was, never what the remote sent.
 */

export interface OutboundInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Ends the exchange early, on top of the policy's deadline. */
  signal?: AbortSignal;
  /** Accept a certificate that does not verify (a SIEM's "allow unverified certificate"; the address checks still apply). */
  insecureTls?: boolean;
  /** Certificate authorities (PEM) trusted besides the system's (a customer's private CA). */
  ca?: string;
}

/**
 * The system's certificate authorities plus an extra one (a private CA), made once per CA: parsing
 * the ~140 system roots for every request cost more than the request (SIEM delivery).
 */
const contexts = new Map<string, tls.SecureContext>();
function contextWithCa(ca: string): tls.SecureContext {
  let context = contexts.get(ca);
  if (!context) {
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, ca] });
    if (contexts.size > 32) contexts.clear();
    contexts.set(ca, context);
  }
  return context;
}

/**
 * `fetch` for user-given URLs: answers a Response (its body read in full, at most `maxBytes`), or
 * throws an OutboundError. A redirect is a failure: following one would need the same checks
 * again, and no caller needs it.
 */
export async function outboundFetch(input: string | URL, init: OutboundInit, policy: OutboundPolicy): Promise<Response> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutboundError('invalid_url', 'The address is not a URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundError('invalid_url', 'Only http and https addresses are fetched.');
  const target = await checkedAddress(policy, url);
  // Connect to the address just checked, whatever the name would resolve to now.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const body = init.body === undefined ? undefined : Buffer.isBuffer(init.body) ? init.body : Buffer.from(init.body);
  const given = { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) };

  // With tracing on, a client span and the traceparent header that makes the peer's span its child.
  return tracedCall(
    init.method ?? 'GET',
    url,
    given,
    (headers) =>
      new Promise<Response>((resolve, reject) => {
        const fail = (error: OutboundError) => {
          clearTimeout(timer);
          init.signal?.removeEventListener('abort', onAbort);
          request.destroy();
          reject(error);
        };
        const onAbort = () => fail(new OutboundError('timeout', 'The request was cancelled.'));
        const timer = setTimeout(
          () => fail(new OutboundError('timeout', `No full answer within ${policy.timeoutMs} ms.`)),
          policy.timeoutMs,
        );
        const request = (url.protocol === 'https:' ? https : http).request(
          url,
          {
            method: init.method ?? 'GET',
            headers,
            lookup,
            agent: pooledAgent(url, target.address, { insecure: init.insecureTls === true, ca: init.ca }),
            ...(init.insecureTls && url.protocol === 'https:' ? { rejectUnauthorized: false } : {}),
            ...(init.ca && url.protocol === 'https:' ? { secureContext: contextWithCa(init.ca) } : {}),
          },
          (response) => {
            const status = response.statusCode ?? 0;
            if (status >= 300 && status < 400)
              return fail(
                new OutboundError('redirect', `The address answered with a redirect (${status}), which is not followed.`),
              );
            if (status < 200 || status > 599)
              return fail(new OutboundError('failed', `The address answered with status ${status}.`));
            const declared = Number(response.headers['content-length'] ?? 0);
            if (declared > policy.maxBytes)
              return fail(new OutboundError('too_large', `The answer is larger than ${policy.maxBytes} bytes.`));
            const chunks: Buffer[] = [];
            let size = 0;
            response.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size > policy.maxBytes)
                return fail(new OutboundError('too_large', `The answer is larger than ${policy.maxBytes} bytes.`));
              chunks.push(chunk);
            });
            response.on('error', () => fail(new OutboundError('failed', 'The connection broke during the answer.')));
            response.on('end', () => {
              if (size > policy.maxBytes) return;
              clearTimeout(timer);
              init.signal?.removeEventListener('abort', onAbort);
              const replyHeaders = new Headers();
              // What callers read of an answer: its type, when a busy peer asks to be called again, its clock.
              for (const name of ['content-type', 'retry-after', 'date']) {
                const value = response.headers[name];
                if (typeof value === 'string') replyHeaders.set(name, value);
              }
              resolve(
                new Response(status === 204 || status === 205 ? null : Buffer.concat(chunks), { status, headers: replyHeaders }),
              );
            });
          },
        );
        request.on('error', () => fail(new OutboundError('failed', `Could not connect to ${url.host}.`)));
        if (init.signal?.aborted) return onAbort();
        init.signal?.addEventListener('abort', onAbort);
        request.end(body);
      }),
  );
}

/**
 * A TCP (or TLS) connection to a user-given `host:port` (a SIEM's syslog receiver), through the
 * same address checks as `outboundFetch`: the name resolved once, every address checked, the
 * connection made to the checked one. Resolves once connected (TLS: once the handshake is done).
 */
export async function outboundConnect(
  target: { host: string; port: number; tls: boolean; insecureTls?: boolean; ca?: string },
  policy: OutboundPolicy,
): Promise<import('node:net').Socket> {
  const url = new URL(
    `tcp://${target.host.includes(':') && !target.host.startsWith('[') ? `[${target.host}]` : target.host}:${target.port}`,
  );
  const checked = await checkedAddress(policy, url);
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new OutboundError('timeout', `No connection within ${policy.timeoutMs} ms.`));
    }, policy.timeoutMs);
    const done = () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(socket);
    };
    const onError = () => {
      clearTimeout(timer);
      reject(new OutboundError('failed', `Could not connect to ${target.host}:${target.port}.`));
    };
    const socket = target.tls
      ? tls.connect(
          {
            host: checked.address,
            port: target.port,
            servername: isIP(target.host) ? undefined : target.host,
            rejectUnauthorized: !target.insecureTls,
            ...(target.ca ? { secureContext: contextWithCa(target.ca) } : {}),
          },
          done,
        )
      : net.connect({ host: checked.address, port: target.port }, done);
    socket.once('error', onError);
  });
}
