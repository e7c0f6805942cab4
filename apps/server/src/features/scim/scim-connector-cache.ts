import type { ConnectorRow } from './scim-connectors.repository.ts';

/** How long a token's connector (or its absence) is reused without asking the database. */
export const CONNECTOR_CACHE_MS = 5_000;
const MAX_ENTRIES = 1_000;

/**
 * The connector each bearer token (by its keyed hashes, never the token) belongs to, kept for
 * {@link CONNECTOR_CACHE_MS}: an IdP sends a handful of requests at a time for minutes, and one
 * lookup per request was a database round trip each. A rotation or revocation on this instance
 * clears it at once; on another instance it takes effect within the TTL (docs/security.md). A
 * previous token's overlap end is checked on every use, not only when cached.
 */
export function createConnectorCache(lookup: (hashes: string[]) => Promise<ConnectorRow | undefined>, now = () => Date.now()) {
  const entries = new Map<string, { row: ConnectorRow | undefined; until: number }>();
  return {
    async get(hashes: string[]): Promise<ConnectorRow | undefined> {
      const key = hashes.join(',');
      const hit = entries.get(key);
      const t = now();
      if (hit && hit.until > t) {
        const overlap = hit.row?.previous_valid_until;
        // The previous token's window may close while cached: then ask again.
        if (!overlap || new Date(overlap).getTime() > t) return hit.row;
      }
      const row = await lookup(hashes);
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, { row, until: t + CONNECTOR_CACHE_MS });
      return row;
    },
    clear: () => entries.clear(),
  };
}
