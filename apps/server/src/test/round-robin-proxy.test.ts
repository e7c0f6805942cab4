import { describe, expect, test } from 'vitest';
import { PEER_HEADER, PIN_HEADER, startRoundRobinProxy, UPSTREAM_HEADER } from './round-robin-proxy.ts';

describe('the round-robin proxy the two-instance tests stand on', () => {
  test('sends each request to the next instance in turn (or the pinned one) with its method, path, headers and body, and appends its peer to X-Forwarded-For', async () => {
    const { createServer } = await import('node:http');
    const seen: string[][] = [[], []];
    const upstreams = await Promise.all(
      [0, 1].map(
        (i) =>
          new Promise<{ url: string; close: () => void }>((resolve) => {
            const server = createServer((req, res) => {
              let body = '';
              req.on('data', (chunk) => (body += chunk));
              req.on('end', () => {
                seen[i]?.push(`${req.method} ${req.url} ${req.headers['x-forwarded-for']} ${req.headers['x-a']} ${body}`);
                res.writeHead(201, { 'x-b': 'b' }).end(`from ${i}`);
              });
            });
            server.listen(0, '127.0.0.1', () => {
              const { port } = server.address() as { port: number };
              resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
            });
          }),
      ),
    );
    const proxy = await startRoundRobinProxy({ peerAddress: '192.0.2.7' });
    try {
      proxy.setUpstreams(upstreams.map((u) => u.url));
      const send = async (path: string, extra: Record<string, string> = {}) => {
        const res = await fetch(proxy.url + path, { method: 'PUT', headers: { 'x-a': 'a', ...extra }, body: `body ${path}` });
        return [res.status, res.headers.get(UPSTREAM_HEADER), res.headers.get('x-b'), await res.text()];
      };
      expect(await send('/one?q=1')).toEqual([201, '0', 'b', 'from 0']);
      expect(await send('/two', { 'x-forwarded-for': '198.51.100.1' })).toEqual([201, '1', 'b', 'from 1']);
      expect(await send('/three', { [PIN_HEADER]: '1' })).toEqual([201, '1', 'b', 'from 1']);
      expect(await send('/four', { [PEER_HEADER]: '192.0.2.9' })).toEqual([201, '0', 'b', 'from 0']);
      expect(seen).toEqual([
        ['PUT /one?q=1 192.0.2.7 a body /one?q=1', 'PUT /four 192.0.2.9 a body /four'],
        ['PUT /two 198.51.100.1, 192.0.2.7 a body /two', 'PUT /three 192.0.2.7 a body /three'],
      ]);
      expect(proxy.served).toEqual([2, 2]);
    } finally {
      await proxy.close();
      for (const u of upstreams) u.close();
    }
  });
});
