import http from 'node:http';
import https from 'node:https';

/** Destinations whose idle connections are kept; past it the longest unused pool is closed. */
const MAX_POOLS = 64;
const pools = new Map<string, http.Agent>();

/**
 * A keep-alive connection pool for one checked address (SIEM delivery sends thousands of
 * requests to one destination, and a TCP + TLS handshake for each cost more than the request).
 * Keyed by the address the outbound guard checked, so a pooled connection only ever goes where a
 * check allowed, and by what the TLS handshake verified (server name, extra CA, unverified allowed),
 * so no request reuses a connection verified on weaker terms than its own.
 */
export function pooledAgent(url: URL, address: string, tlsTerms: { insecure: boolean; ca: string | undefined }): http.Agent {
  const secure = url.protocol === 'https:';
  const key = [url.protocol, address, url.port, url.hostname, secure && tlsTerms.insecure, secure && tlsTerms.ca].join('\n');
  let agent = pools.get(key);
  if (agent) {
    // Most recently used last: the first entry is the one to close when the map is full.
    pools.delete(key);
  } else {
    const options = { keepAlive: true, maxSockets: 16, maxFreeSockets: 8, scheduling: 'lifo' as const };
    agent = secure ? new https.Agent(options) : new http.Agent(options);
    if (pools.size >= MAX_POOLS) {
      const [oldest, pool] = pools.entries().next().value as [string, http.Agent];
      pools.delete(oldest);
      pool.destroy();
    }
  }
  pools.set(key, agent);
  return agent;
}
