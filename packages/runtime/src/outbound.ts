import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import tls from 'node:tls';
import { embeddedIPv4s } from './ipv4-embedded.ts';
import { pooledAgent } from './outbound-agents.ts';

/**
 * The one way the programs fetch a URL a user gave them (a Hub's address today; SSO metadata, SIEM
 * destinations and webhooks later), against server-side request forgery: the name is resolved once,
 * every address it resolves to is checked, and the connection goes to that checked address (no
 * second lookup a DNS rebinding could answer differently). No redirects, a deadline, a size limit,
 * and errors that say what kind of failure it was, never what the remote sent.
 */

export interface OutboundPolicy {
  /** Outside production: loopback and private networks are reachable (the demo and tests run Hubs on 127.0.0.1). */
  allowPrivate: boolean;
  /** Hosts (`hub.corp.example`, `*.corp.example`) and addresses or CIDRs (`10.1.2.3`, `10.0.0.0/8`, `fd00::/8`) always reachable. */
  allow: readonly string[];
  /** The whole exchange, connection to last byte. */
  timeoutMs: number;
  /** The most the remote may send back. */
  maxBytes: number;
  /** Resolves a name to its addresses (tests inject one; DNS otherwise). */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

export type OutboundFailure = 'invalid_url' | 'refused' | 'unresolvable' | 'redirect' | 'timeout' | 'too_large' | 'failed';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 5_000;
export const DEFAULT_OUTBOUND_MAX_BYTES = 1024 * 1024;

/** The policy for a program: production refuses every non-public address that the allow-list does not name. */
export function outboundPolicy(options: {
  production: boolean;
  allow?: readonly string[];
  timeoutMs?: number;
  maxBytes?: number;
}): OutboundPolicy {
  return {
    allowPrivate: !options.production,
    allow: options.allow ?? [],
    timeoutMs: options.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_OUTBOUND_MAX_BYTES,
  };
}

/** `OUTBOUND_ALLOW`: entries separated by commas or spaces. */
export function parseAllowList(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}

/** Where an address points: only `public` is reachable in production without the allow-list. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link_local' | 'unspecified' | 'multicast' | 'reserved';

const ranges = (list: [string, number, 'ipv4' | 'ipv6'][]) => {
  const block = new BlockList();
  for (const [net, prefix, type] of list) block.addSubnet(net, prefix, type);
  return block;
};

const KINDS: [Exclude<AddressKind, 'public'>, BlockList][] = [
  [
    'loopback',
    ranges([
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ]),
  ],
  [
    'unspecified',
    ranges([
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ]),
  ],
  [
    'private',
    ranges([
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      // Carrier-grade NAT: the provider's network, not the internet.
      ['100.64.0.0', 10, 'ipv4'],
      // Unique-local IPv6.
      ['fc00::', 7, 'ipv6'],
    ]),
  ],
  // Cloud metadata services live here (169.254.169.254): refused even outside production.
  [
    'link_local',
    ranges([
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
      ['fec0::', 10, 'ipv6'],
    ]),
  ],
  [
    'multicast',
    ranges([
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ]),
  ],
  [
    'reserved',
    ranges([
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['192.88.99.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      // IPv4-compatible (deprecated), discard-only, documentation, Teredo, local-use NAT64: the
      // IPv4 they carry is classed too (addressKind), and these stay refused whatever it is.
      ['::', 96, 'ipv6'],
      ['100::', 64, 'ipv6'],
      ['2001:db8::', 32, 'ipv6'],
      ['2001::', 32, 'ipv6'],
      ['64:ff9b:1::', 48, 'ipv6'],
    ]),
  ],
];

/**
 * How far a kind is from reachable: public, then what only development reaches, then what nothing
 * reaches. An IPv6 address is classed by its own range, or by an IPv4 address it carries when that
 * one is further from reachable (a public wrapper around the metadata service is link-local).
 */
const SEVERITY: Record<AddressKind, number> = {
  public: 0,
  private: 1,
  loopback: 2,
  link_local: 3,
  unspecified: 3,
  multicast: 3,
  reserved: 3,
};

function rangeKind(address: string, type: 'ipv4' | 'ipv6'): AddressKind {
  for (const [kind, block] of KINDS) if (block.check(address, type)) return kind;
  return 'public';
}

export function addressKind(address: string): AddressKind {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 4) return rangeKind(address, 'ipv4');
  let kind = rangeKind(address, 'ipv6');
  for (const inner of embeddedIPv4s(address)) {
    const innerKind = rangeKind(inner, 'ipv4');
    if (SEVERITY[innerKind] > SEVERITY[kind]) kind = innerKind;
  }
  return kind;
}

function inAllowList(policy: OutboundPolicy, hostname: string, address: string): boolean {
  const host = hostname.toLowerCase();
  const family = isIP(address);
  for (const entry of policy.allow) {
    if (entry.includes('/') || isIP(entry)) {
      const [net = '', bits] = entry.split('/');
      const netFamily = isIP(net);
      if (netFamily === 0 || netFamily !== family) continue;
      const block = new BlockList();
      const type = netFamily === 4 ? 'ipv4' : 'ipv6';
      block.addSubnet(net, bits === undefined ? (netFamily === 4 ? 32 : 128) : Number(bits), type);
      if (block.check(address, type)) return true;
    } else if (entry.startsWith('*.') ? host.endsWith(entry.slice(1)) : host === entry) {
      return true;
    }
  }
  return false;
}

/** Why `address` (reached as `hostname`) may not be fetched under `policy`, or null when it may. */
export function addressProblem(policy: OutboundPolicy, hostname: string, address: string): AddressKind | null {
  if (inAllowList(policy, hostname, address)) return null;
  const kind = addressKind(address);
  if (kind === 'public') return null;
  if (policy.allowPrivate && (kind === 'loopback' || kind === 'private')) return null;
  return kind;
}

const defaultResolve = async (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

/** The one address to connect to: every address the name has must be allowed, so no answer can slip one in. */
async function checkedAddress(policy: OutboundPolicy, url: URL): Promise<{ address: string; family: number }> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) }];
  // RFC 6761: these names are this machine, whatever a resolver says.
  else if (hostname === 'localhost' || hostname.endsWith('.localhost')) addresses = [{ address: '127.0.0.1', family: 4 }];
  else {
    try {
      addresses = await (policy.resolve ?? defaultResolve)(hostname);
    } catch {
      throw new OutboundError('unresolvable', `The name ${hostname} could not be resolved.`);
    }
  }
  if (!addresses.length) throw new OutboundError('unresolvable', `The name ${hostname} could not be resolved.`);
  for (const { address } of addresses) {
    const problem = addressProblem(policy, hostname, address);
    if (problem)
      throw new OutboundError('refused', `${hostname} points to a ${problem.replace('_', '-')} address, which is not allowed.`);
  }
  return addresses[0] as { address: string; family: number };
}

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
 * `fetch` for user-given URLs: answers a Response (its body read in full, at most `maxBytes`), or
 * throws an OutboundError. A redirect is a failure: following one would need the same checks
 * again, and no caller needs it.
 */
/**
 * The system's certificate authorities plus an extra one (a private CA), made once per CA: parsing
 * the ~140 system roots for every request cost more than the request (SIEM delivery, issue 12).
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
  const headers = { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) };

  return new Promise<Response>((resolve, reject) => {
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
          return fail(new OutboundError('redirect', `The address answered with a redirect (${status}), which is not followed.`));
        if (status < 200 || status > 599) return fail(new OutboundError('failed', `The address answered with status ${status}.`));
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
          // What callers read of an answer: its type, and when a busy peer asks to be called again.
          for (const name of ['content-type', 'retry-after']) {
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
  });
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
