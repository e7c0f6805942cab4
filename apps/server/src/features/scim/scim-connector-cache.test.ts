import { expect, test } from 'vitest';
import { CONNECTOR_CACHE_MS, createConnectorCache } from './scim-connector-cache.ts';
import type { ConnectorRow } from './scim-connectors.repository.ts';

const row = (previousUntil: number | null = null) =>
  ({ id: 'c1', team_id: 't1', previous_valid_until: previousUntil === null ? null : new Date(previousUntil) }) as ConnectorRow;

test('a token is looked up once per TTL; revocation (clear) and expiry ask again', async () => {
  let now = 1_000_000;
  let answer: ConnectorRow | undefined = row();
  const lookups: string[][] = [];
  const cache = createConnectorCache(
    async (hashes) => {
      lookups.push(hashes);
      return answer;
    },
    () => now,
  );
  expect(await cache.get(['h1'])).toEqual(row());
  now += CONNECTOR_CACHE_MS - 1;
  expect(await cache.get(['h1'])).toEqual(row());
  expect(lookups).toHaveLength(1);
  // Revoked on this instance: the cache is cleared and the database says no at once.
  answer = undefined;
  cache.clear();
  expect(await cache.get(['h1'])).toBeUndefined();
  expect(lookups).toHaveLength(2);
  // Revoked on another instance: honoured when the entry expires.
  answer = row();
  now += CONNECTOR_CACHE_MS;
  expect(await cache.get(['h1'])).toEqual(row());
  expect(lookups).toHaveLength(3);
  // Another token is another entry.
  await cache.get(['h2']);
  expect(lookups).toHaveLength(4);
});

test("a previous token's overlap end is checked on every use, not only when looked up", async () => {
  let now = 2_000_000;
  let calls = 0;
  const cache = createConnectorCache(
    async () => {
      calls++;
      return now < 2_000_500 ? row(2_000_500) : undefined;
    },
    () => now,
  );
  expect(await cache.get(['old'])).toBeDefined();
  now = 2_000_400;
  expect(await cache.get(['old'])).toBeDefined();
  expect(calls).toBe(1);
  // The overlap ended inside the TTL: asked again, and refused.
  now = 2_000_600;
  expect(await cache.get(['old'])).toBeUndefined();
  expect(calls).toBe(2);
});
