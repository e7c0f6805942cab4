import { Agent, createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Names the instance that answered (its index among the upstreams), on every reply. */
export const UPSTREAM_HEADER = 'x-test-upstream';
/** A request carrying this header (an index) goes to that instance instead of the next in turn. */
export const PIN_HEADER = 'x-test-pin-upstream';
/** The client's network address as the proxy would see it (every test client is on loopback). */
export const PEER_HEADER = 'x-test-peer-address';

export interface RoundRobinProxy {
  url: string;
  /** How many requests each upstream was sent. */
  served: number[];
  setUpstreams(urls: string[]): void;
  close(): Promise<void>;
}

/**
 * A load balancer in a few lines, for tests of several instances behind one address: each request
 * goes to the next upstream in turn (or the pinned one), with its method, path, headers and body;
 * X-Forwarded-For gets the peer's address appended, as a proxy in front of the instances does.
 * Every peer is on loopback here, so the address the proxy reports for one is what it says in
 * PEER_HEADER (a test playing several clients), else `peerAddress`: request-rate counters in a
 * Redis other test files share are keyed by address, and this run's traffic must neither count
 * against theirs nor theirs against this run's. Whatever X-Forwarded-For the client sent is kept
 * in front, as real proxies do: only the last entry is the proxy's own word.
 */
export async function startRoundRobinProxy(options: { peerAddress: string }): Promise<RoundRobinProxy> {
  let upstreams: URL[] = [];
  let served: number[] = [];
  let next = 0;
  // A connection per request: an instance that closes finds no idle connection of ours to wait for.
  const agent = new Agent({ keepAlive: false });

  const server = createServer((incoming, outgoing) => {
    const pinned = incoming.headers[PIN_HEADER];
    const index = typeof pinned === 'string' ? Number(pinned) : next++ % upstreams.length;
    const target = upstreams[index];
    if (!target) {
      outgoing.writeHead(502).end();
      return;
    }
    served[index] = (served[index] ?? 0) + 1;
    const headers: IncomingHttpHeaders = { ...incoming.headers, host: target.host };
    delete headers[PIN_HEADER];
    delete headers[PEER_HEADER];
    const claimed = incoming.headers[PEER_HEADER];
    const peer = typeof claimed === 'string' ? claimed : options.peerAddress;
    const forwarded = incoming.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = forwarded ? `${forwarded}, ${peer}` : peer;
    const upstream = request(
      { agent, host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, [UPSTREAM_HEADER]: String(index) });
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get served() {
      return served;
    },
    setUpstreams(urls) {
      upstreams = urls.map((u) => new URL(u));
      served = urls.map(() => 0);
      next = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
