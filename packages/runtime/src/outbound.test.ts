import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { outboundConnect, outboundFetch } from './outbound.ts';
import { type AddressKind, addressKind } from './outbound-addresses.ts';
import { OutboundError, type OutboundPolicy, outboundPolicy, parseAllowList } from './outbound-policy.ts';

let server: Server;
let port: number;
let hits = 0;
beforeAll(async () => {
  server = createServer((request, response) => {
    hits++;
    if (request.url === '/redirect') {
      response.writeHead(302, { location: `http://127.0.0.1:${port}/ok` });
      return response.end();
    }
    if (request.url === '/big') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      // No content-length: the limit must hold while reading, not only from the header.
      const chunk = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 40; i++) response.write(chunk);
      return response.end();
    }
    if (request.url === '/slow') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('a');
      return; // never ends
    }
    if (request.url === '/error') {
      response.writeHead(500, { 'content-type': 'application/json' });
      return response.end('{"secret":"internal detail"}');
    }
    let body = '';
    request.on('data', (c) => (body += c));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ method: request.method, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const production = outboundPolicy({ production: true });
const development = outboundPolicy({ production: false });

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe('addresses (security finding 5)', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['fe80::1', 'link_local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['93.184.215.14', 'public'],
    ['172.32.0.1', 'public'],
    ['2606:4700::1111', 'public'],
    ['64:ff9b::5db8:d70e', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });
});

/**
 * Every layout that carries an IPv4 address inside an IPv6 one, in each spelling: the IPv4 inside is
 * classed (169.254.169.254 is a9fe:a9fe, 127.0.0.1 is 7f00:1, 10.0.0.1 is a00:1). SIIT's
 * `::ffff:0:a.b.c.d` and ISATAP under a public prefix were classed public, in production too.
 */
const EMBEDDING: [string, string, AddressKind][] = [
  ['IPv4-mapped, dotted', '::ffff:169.254.169.254', 'link_local'],
  ['IPv4-mapped, hex', '::ffff:a9fe:a9fe', 'link_local'],
  ['IPv4-mapped, written out', '0:0:0:0:0:ffff:a9fe:a9fe', 'link_local'],
  ['IPv4-mapped, zero-padded capitals', '0000:0000:0000:0000:0000:FFFF:A9FE:A9FE', 'link_local'],
  ['IPv4-mapped, public', '::ffff:8.8.8.8', 'public'],
  // IPv4-compatible, Teredo and local-use NAT64 are refused as reserved ranges whatever they carry.
  ['IPv4-compatible, dotted', '::169.254.169.254', 'reserved'],
  ['IPv4-compatible, hex', '::a9fe:a9fe', 'reserved'],
  ['IPv4-compatible loopback', '::127.0.0.1', 'reserved'],
  ['SIIT, dotted', '::ffff:0:169.254.169.254', 'link_local'],
  ['SIIT, hex', '::ffff:0:a9fe:a9fe', 'link_local'],
  ['SIIT, written out', '0:0:0:0:ffff:0:a9fe:a9fe', 'link_local'],
  ['SIIT, zero-padded', '0000:0000:0000:0000:ffff:0000:a9fe:a9fe', 'link_local'],
  ['SIIT loopback', '::ffff:0:7f00:1', 'loopback'],
  ['SIIT private', '::ffff:0:10.0.0.1', 'private'],
  ['SIIT public', '::ffff:0:8.8.8.8', 'public'],
  ['NAT64 well-known prefix, dotted', '64:ff9b::169.254.169.254', 'link_local'],
  ['NAT64 well-known prefix, hex, written out', '64:ff9b:0:0:0:0:a9fe:a9fe', 'link_local'],
  ['NAT64 well-known prefix, loopback', '64:ff9b::7f00:1', 'loopback'],
  ['NAT64 local-use /96', '64:ff9b:1::a9fe:a9fe', 'reserved'],
  ['NAT64 local-use /48 (IPv4 around the u octet)', '64:ff9b:1:a9fe:a9:fe00::', 'reserved'],
  ['NAT64 local-use, public inside', '64:ff9b:1::8.8.8.8', 'reserved'],
  ['6to4', '2002:a9fe:a9fe::1', 'link_local'],
  ['6to4 loopback', '2002:7f00:1::', 'loopback'],
  ['6to4 private, with a subnet', '2002:a00:1:1::1', 'private'],
  ['6to4 public', '2002:808:808::1', 'public'],
  ['Teredo server', '2001:0:a9fe:a9fe::', 'reserved'],
  ['Teredo client (inverted bits)', '2001:0:4136:e378:8000:63bf:5601:5601', 'reserved'],
  ['Teredo, public both ends', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'reserved'],
  ['ISATAP, private-address form', '2606:4700::5efe:a9fe:a9fe', 'link_local'],
  ['ISATAP, dotted', '2606:4700::5efe:169.254.169.254', 'link_local'],
  ['ISATAP, global-address form', '2606:4700::200:5efe:a9fe:a9fe', 'link_local'],
  ['ISATAP private', '2606:4700:0:1:0:5efe:10.0.0.1', 'private'],
  ['ISATAP link-local prefix', 'fe80::5efe:a9fe:a9fe', 'link_local'],
  ['ISATAP public', '2606:4700::200:5efe:808:808', 'public'],
  ['not ISATAP (group bit set)', '2606:4700::100:5efe:a9fe:a9fe', 'public'],
];

describe('IPv6 addresses that carry an IPv4 one', () => {
  test.each(EMBEDDING)('%s: %s is %s', (_layout, address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  const refusedEverywhere = EMBEDDING.filter(([, , kind]) => !['public', 'loopback', 'private'].includes(kind));
  const refusedInProduction = EMBEDDING.filter(([, , kind]) => kind === 'loopback' || kind === 'private');

  test.each(refusedEverywhere)(
    '%s: http://[%s]/ is refused before any connection, outside production too',
    async (_l, address, kind) => {
      for (const policy of [development, production]) {
        const error = await failure(outboundFetch(`http://[${address}]:${port}/ok`, {}, policy));
        expect(error.kind).toBe('refused');
        expect(error.message).toContain(kind.replace('_', '-'));
      }
    },
  );

  test.each(refusedInProduction)('%s: https://[%s]/ is refused in production', async (_l, address) => {
    expect((await failure(outboundFetch(`https://[${address}]/`, {}, production))).kind).toBe('refused');
  });

  test.each([...refusedEverywhere, ...refusedInProduction])(
    '%s: a name that resolves to %s is refused in production',
    async (_l, address) => {
      const policy: OutboundPolicy = { ...production, resolve: async () => [{ address, family: 6 }] };
      expect((await failure(outboundFetch('https://metadata.example/latest/', {}, policy))).kind).toBe('refused');
    },
  );

  test('the raw TCP connection of a syslog destination is held to the same checks', async () => {
    const connect = (host: string) => outboundConnect({ host, port, tls: false }, development);
    expect((await failure(connect('::ffff:0:a9fe:a9fe'))).kind).toBe('refused');
    expect((await failure(connect('[2606:4700::5efe:a9fe:a9fe]'))).kind).toBe('refused');
  });
});

describe('outboundFetch', () => {
  test('a server on 127.0.0.1 is refused in production, before any connection', async () => {
    const before = hits;
    const error = await failure(outboundFetch(`http://127.0.0.1:${port}/ok`, {}, production));
    expect(error.kind).toBe('refused');
    expect(error.message).toContain('loopback');
    expect(hits).toBe(before);
  });

  test('the same server is reached outside production, and with the allow-list in production', async () => {
    const dev = await outboundFetch(`http://127.0.0.1:${port}/ok`, { method: 'POST', body: 'hi' }, development);
    expect(await dev.json()).toEqual({ method: 'POST', body: 'hi' });
    for (const allow of ['127.0.0.1', '127.0.0.0/8', 'localhost']) {
      const policy = outboundPolicy({ production: true, allow: parseAllowList(` ${allow}, other.example`) });
      const host = allow === 'localhost' ? 'localhost' : '127.0.0.1';
      const res = await outboundFetch(
        `http://${host}:${port}/ok`,
        {},
        { ...policy, resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
      );
      expect(res.status).toBe(200);
    }
  });

  test('a name that resolves to a private address is refused, and IPv6 forms of loopback too', async () => {
    const resolvesPrivate: OutboundPolicy = { ...production, resolve: async () => [{ address: '10.0.0.7', family: 4 }] };
    expect((await failure(outboundFetch('https://hub.example.com/', {}, resolvesPrivate))).kind).toBe('refused');
    // One bad answer among good ones is enough: the connection could go to any of them.
    const mixed: OutboundPolicy = {
      ...production,
      resolve: async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '::ffff:169.254.169.254', family: 6 },
      ],
    };
    expect((await failure(outboundFetch('https://hub.example.com/', {}, mixed))).kind).toBe('refused');
    // `localhost` and `*.localhost` names, through the real resolver.
    expect((await failure(outboundFetch(`http://localhost:${port}/`, {}, production))).kind).toBe('refused');
    expect((await failure(outboundFetch(`http://[::1]:${port}/`, {}, production))).kind).toBe('refused');
    expect((await failure(outboundFetch(`http://[::ffff:127.0.0.1]:${port}/`, {}, production))).kind).toBe('refused');
    // Link-local (cloud metadata) stays refused outside production too.
    expect((await failure(outboundFetch('http://169.254.169.254/latest/meta-data/', {}, development))).kind).toBe('refused');
  });

  test('connects to the address it checked, not to a second answer of the resolver', async () => {
    let calls = 0;
    const rebinding: OutboundPolicy = {
      ...development,
      // First answer fine, any later one would be the metadata service.
      resolve: async () => [{ address: calls++ === 0 ? '127.0.0.1' : '169.254.169.254', family: 4 }],
    };
    const res = await outboundFetch(`http://rebind.example:${port}/ok`, {}, rebinding);
    expect(res.status).toBe(200);
    expect(calls).toBe(1);
  });

  test('keeps a connection alive for the address it checked, never for another answer of the name', async () => {
    let connections = 0;
    const count = () => connections++;
    server.on('connection', count);
    try {
      let answer = '127.0.0.1';
      const policy: OutboundPolicy = { ...development, resolve: async () => [{ address: answer, family: 4 }] };
      for (let i = 0; i < 3; i++) expect((await outboundFetch(`http://pool.example:${port}/ok`, {}, policy)).status).toBe(200);
      expect(connections).toBe(1);
      // The name now points elsewhere (nothing listens there): the pooled connection to the old
      // address must not carry the request.
      answer = '127.0.0.2';
      expect((await failure(outboundFetch(`http://pool.example:${port}/ok`, {}, policy))).kind).toBe('failed');
      expect(connections).toBe(1);
    } finally {
      server.off('connection', count);
    }
  });

  test('a redirect is not followed, wherever it points', async () => {
    const before = hits;
    const error = await failure(outboundFetch(`http://127.0.0.1:${port}/redirect`, {}, development));
    expect(error.kind).toBe('redirect');
    expect(hits).toBe(before + 1);
  });

  test('an oversized body is cut off, and a slow one times out', async () => {
    const small = { ...development, maxBytes: 100_000 };
    expect((await failure(outboundFetch(`http://127.0.0.1:${port}/big`, {}, small))).kind).toBe('too_large');
    const started = Date.now();
    const quick = { ...development, timeoutMs: 300 };
    expect((await failure(outboundFetch(`http://127.0.0.1:${port}/slow`, {}, quick))).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  test('errors name the kind of failure, never what the remote sent', async () => {
    const res = await outboundFetch(`http://127.0.0.1:${port}/error`, {}, development);
    // The caller gets the status to decide on; the body is there for it to parse, not to repeat.
    expect(res.status).toBe(500);
    const closed = await failure(outboundFetch('http://127.0.0.1:1/', {}, development));
    expect(closed.kind).toBe('failed');
    expect((await failure(outboundFetch('ftp://example.com/', {}, development))).kind).toBe('invalid_url');
    const unresolvable = { ...production, resolve: async () => Promise.reject(new Error('ENOTFOUND')) };
    expect((await failure(outboundFetch('https://nowhere.example/', {}, unresolvable))).kind).toBe('unresolvable');
  });
});
