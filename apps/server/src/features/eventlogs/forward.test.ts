import { randomUUID } from 'node:crypto';
import type { Db } from '@latchkey/runtime';
import { createTestDb } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';
import { eventlogsRepository, type OutboxEvent } from './eventlogs.repository.ts';
import { type EventHub, type EventHubs, forwardTeam } from './eventlogs.service.ts';

let db: Db;
let teamId: string;

beforeAll(async () => {
  db = await createTestDb(MIGRATIONS_DIR);
  const [team] = await db.query<{ id: string }>(
    `insert into teams (slug, name, team_type, organization_type, valid_till)
     values ('two-hubs', 'Two Hubs', 'organization', 'enterprise', current_date + 30) returning id`,
  );
  teamId = team?.id ?? '';
});
afterAll(async () => {
  await db.close();
});

const event = (n: number): OutboxEvent => ({
  id: randomUUID(),
  actor: 'a@x.example',
  actor_type: 'admin',
  activity: 'group.created',
  component: 'groups',
  target: `group ${n}`,
  ip: '',
  device: '',
  occurred_at: new Date().toISOString(),
  outcome: 'success',
  detail: {},
});

/** Two Hubs of one team; `down` holds the names of those that refuse every batch. */
function twoHubs(down: Set<string>) {
  const received = new Map<string, string[]>([
    ['up', []],
    ['down', []],
  ]);
  const hub = (name: string): EventHub => ({ server_url: `https://${name}.example`, credential_id: name, team_slug: 'two-hubs' });
  const hubs: EventHubs = {
    hubsOf: async () => [hub('down'), hub('up')],
    send: async (target, events) => {
      if (down.has(target.credential_id)) throw new Error(`${target.credential_id} did not answer`);
      received.get(target.credential_id)?.push(...events.map((e) => e.target));
    },
  };
  return { hubs, received };
}

test('a Hub that is down holds back only itself; it gets every event once it is back; then the outbox empties', async () => {
  // More than one batch (500), so the healthy Hub's cursor has to carry on past the first.
  for (let n = 0; n < 1_203; n++) await eventlogsRepository.insertMany(db, teamId, [event(n)]);
  const down = new Set(['down']);
  const { hubs, received } = twoHubs(down);

  await expect(forwardTeam(db, hubs, teamId)).rejects.toThrow('down did not answer');
  // In the order they were made (seq as a number: the text '10' sorts before '9').
  expect(received.get('up')).toEqual(Array.from({ length: 1_203 }, (_, n) => `group ${n}`));
  expect(received.get('down')).toHaveLength(0);
  // Nothing is deleted that the other Hub has not taken.
  expect(await eventlogsRepository.count(db, teamId)).toBe(1_203);

  // More events while it is down: the healthy Hub gets them at the next run.
  await eventlogsRepository.insertMany(db, teamId, [event(1_203)]);
  await expect(forwardTeam(db, hubs, teamId)).rejects.toThrow();
  expect(received.get('up')).toHaveLength(1_204);

  down.clear();
  await forwardTeam(db, hubs, teamId);
  expect(received.get('down')).toHaveLength(1_204);
  expect(new Set(received.get('down')).size).toBe(1_204);
  expect(received.get('up')).toHaveLength(1_204);
  expect(await eventlogsRepository.count(db, teamId)).toBe(0);
});
