import { describe, expect, test } from 'vitest';
import { address, call, RATE_LIMIT, twoInstancesForFile } from './two-instances-harness.ts';

// The request rate limits of two servers and two Hubs: one budget per client in Redis, whichever
// instance answers, and a client's own X-Forwarded-For no way to another's budget.

// On PostgreSQL only: embedded PGlite is one process's own database, so there are no two instances to run
// (vitest.config.ts leaves this file out of the PGlite pass).
describe('two server instances and two Hub instances behind one address each, on one PostgreSQL and one Redis', () => {
  const instances = twoInstancesForFile();

  for (const [name, send] of [
    [
      'server',
      (from: string, forwarded?: string) => call(instances.serverProxy, '/api/v1/team/admin/info/', { client: from, forwarded }),
    ],
    [
      'Hub',
      (from: string, forwarded?: string) =>
        call(instances.hubProxy, '/api/v1/session/', { client: from, forwarded, body: { team_slug: 'northwind' } }),
    ],
  ] as const) {
    test(`the ${name}'s request rate limit counts across both instances`, async () => {
      const from = address();
      const answers = [];
      for (let i = 0; i < RATE_LIMIT; i++) answers.push(await send(from));
      // Half through each instance, none limited…
      expect(answers.filter((a) => a.instance === 0)).toHaveLength(RATE_LIMIT / 2);
      expect(answers.filter((a) => a.status === 429)).toEqual([]);
      // …and the next is refused on either, though each instance alone has seen only half the limit.
      expect((await send(from)).status).toBe(429);
      expect((await send(from)).status).toBe(429);
      // Another client is not.
      expect((await send(address())).status).not.toBe(429);
    });

    test(`a client cannot pass for another at the ${name} by sending its own X-Forwarded-For`, async () => {
      const from = address();
      const answers = [];
      // Each request claims a new address in front of what the proxy appends.
      for (let i = 0; i <= RATE_LIMIT; i++) answers.push((await send(from, address())).status);
      expect(answers.slice(0, RATE_LIMIT).filter((s) => s === 429)).toEqual([]);
      expect(answers.at(-1)).toBe(429);
    });
  }
});
