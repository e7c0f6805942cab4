import { randomUUID } from 'node:crypto';
import { EventFilters } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubDb } from '../../testing/hub-fixture.ts';
import { eventSearchRepository } from './event-search.repository.ts';
import { eventsRepository, type NewEvent } from './eventlogs.repository.ts';
import { createSearchIndexer } from './search-indexer.ts';

// Search reads the rows the indexer has not reached and the newest indexed ones on their own
// columns, then the index below them month by month (migration 0014). Whatever the split, the
// answer must be the one a plain scan gives.
const TEAM = 'search-team';
const OTHER = 'other-team';
let db: Db;

const event = (i: number, o: Partial<NewEvent> = {}): NewEvent => ({
  id: randomUUID(),
  actor: `member.${i}@northwind.example`,
  actor_type: 'member',
  activity: i % 2 ? 'member.invited' : 'group.created',
  component: 'members',
  target: i % 7 === 0 ? `Vault needle_${i}` : `Vault ${i}`,
  ip: `10.0.${i % 5}.${i}`,
  device: 'Firefox on Linux',
  occurred_at: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
  outcome: 'success',
  detail: {},
  ...o,
});

async function appendAll(team: string, events: NewEvent[], monthsAgo = 0) {
  const recordedAt = monthsAgo ? new Date(Date.now() - monthsAgo * 31 * 86_400_000) : undefined;
  for (let i = 0; i < events.length; i += 40)
    await db.transaction((tx) => eventsRepository.append(tx, team, events.slice(i, i + 40), recordedAt));
}

const filters = (f: Partial<EventFilters>) => EventFilters.parse(f) as Required<EventFilters>;

/** The answer by a plain scan of every column, newest first. */
async function plainScan(team: string, pattern: string, activity?: string): Promise<number[]> {
  const rows = await db.query<{ seq: string }>(
    `select seq from event_log where team_slug = $1 and ($3::text is null or activity = $3)
       and (actor ilike $2 or target ilike $2 or activity ilike $2 or ip ilike $2 or device ilike $2 or component ilike $2)
     order by seq desc`,
    [team, pattern, activity ?? null],
  );
  return rows.map((r) => Number(r.seq));
}

/** Every page of a search, by keyset, as seqs. */
async function allPages(f: Required<EventFilters>, pageSize: number, searchWindow: number): Promise<number[]> {
  const head = await eventsRepository.head(db, TEAM);
  const seen: number[] = [];
  let beforeSeq: number | undefined;
  for (;;) {
    const page = await eventsRepository.page(db, TEAM, f, { page: 1, pageSize, beforeSeq, headSeq: head.seq, searchWindow });
    seen.push(...page.map((r) => r.seq));
    if (page.length < pageSize) return seen;
    beforeSeq = page.at(-1)?.seq;
  }
}

beforeAll(async () => {
  db = await createHubDb();
  // Three months of the search index: the walk below the window goes month by month, newest first.
  await appendAll(
    TEAM,
    Array.from({ length: 100 }, (_, i) => event(i + 1)),
    3,
  );
  await appendAll(
    TEAM,
    Array.from({ length: 100 }, (_, i) => event(i + 101)),
    2,
  );
  await appendAll(
    TEAM,
    Array.from({ length: 100 }, (_, i) => event(i + 201)),
  );
  // Another team's events hold the same words: never part of this team's answer.
  await appendAll(
    OTHER,
    Array.from({ length: 50 }, (_, i) => event(i * 7, { target: 'Vault needle_other' })),
  );
  // The first 180 of the team's events indexed; 181–300 not yet.
  await db.transaction((tx) => eventSearchRepository.indexNext(tx, TEAM, 180));
});
afterAll(async () => {
  await db.close();
});

describe('search across the index and the rows not indexed yet', () => {
  it('indexes in order up to its mark, and only what exists', async () => {
    expect(await eventSearchRepository.progress(db, TEAM)).toBe(180);
    expect(await eventSearchRepository.teamsBehind(db)).toEqual(expect.arrayContaining([TEAM, OTHER]));
    const [row] = await db.query<{ n: number; hi: string }>(
      'select count(*)::int as n, max(seq)::int as hi from event_search where team_slug = $1',
      [TEAM],
    );
    expect(row).toEqual({ n: 180, hi: 180 });
  });

  it.each([
    ['needle', 5, 10],
    ['needle', 7, 1000],
    ['NEEDLE_1', 3, 25],
    ['10.0.3.', 10, 40],
    ['member.invited', 50, 60],
    ['member.2', 4, 100],
    // A value and the words around it: found through the targets that hold it.
    ['Vault needle_1', 3, 10],
    ['Vault needle_14', 2, 10],
  ])('"%s", pages of %i, window %i: the plain scan’s rows in its order', async (value, pageSize, window) => {
    const expected = await plainScan(TEAM, `%${value.replace('_', '\\_')}%`);
    expect(expected.length).toBeGreaterThan(0);
    expect(await allPages(filters({ search_value: value }), pageSize, window)).toEqual(expected);
  });

  it('looks up only the words that narrow: none found in over a tenth of the newest events', async () => {
    const words = (value: string) => eventSearchRepository.selectiveWords(db, TEAM, value, { above: 0, upTo: 180 });
    // "Vault" is in every target, "needle" in a seventh of them, the mail domain in every actor; each
    // word keeps its neighbours, so "_14" and ".17@" give trigrams (". @ _" are letters to the index).
    expect(await words('Vault needle_14')).toEqual(['_14']);
    expect(await words('member.17@northwind.example')).toEqual(['.17@']);
    // One word, or none that narrows: the whole value is looked up.
    expect(await words('needle')).toEqual([]);
    expect(await words('Firefox on Linux')).toEqual([]);
  });

  it('reads only the months holding a value that matches (event_search_values)', async () => {
    const monthOf = (monthsAgo: number) => {
      const d = new Date(Date.now() - monthsAgo * 31 * 86_400_000);
      return `${d.toISOString().slice(0, 8)}01`;
    };
    const sample = { above: 0, upTo: 180 };
    const months = async (value: string) => new Set((await eventSearchRepository.keysMatching(db, TEAM, value, sample)).keys());
    // "needle_21" is a target of the oldest month (and of events 210 and 217, not indexed yet); "Vault 150" of the middle one.
    expect(await months('needle_21')).toEqual(new Set([monthOf(3)]));
    expect(await months('Vault 150')).toEqual(new Set([monthOf(2)]));
    expect(await months('Vault 250')).toEqual(new Set());
    // A key per matching value: "o" is in the 80 actors of the middle month's indexed events (101–180),
    // in one of its two activities and in its device.
    expect((await eventSearchRepository.keysMatching(db, TEAM, 'o', sample)).get(monthOf(2))).toHaveLength(82);
    expect((await eventSearchRepository.keysMatching(db, TEAM, 'member.invited', sample)).get(monthOf(2))).toHaveLength(1);
    const f = filters({ search_value: 'needle_21' });
    expect(await allPages(f, 5, 10)).toEqual([217, 210, 21]);
    // With the oldest month's values gone, the search no longer reads that month: the lookup decides.
    await db
      .transaction(async (tx) => {
        await tx.query('delete from event_search_values where team_slug = $1 and month = $2', [TEAM, monthOf(3)]);
        const head = await eventsRepository.head(tx, TEAM);
        const page = await eventsRepository.page(tx, TEAM, f, { page: 1, pageSize: 5, headSeq: head.seq, searchWindow: 10 });
        expect(page.map((r) => r.seq)).toEqual([217, 210]);
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    expect(await allPages(f, 5, 10)).toEqual([217, 210, 21]);
  });

  it('combines with the other filters, and page N without a keyset skips the rows before it', async () => {
    const expected = await plainScan(TEAM, '%needle%', 'member.invited');
    expect(expected.length).toBeGreaterThan(6);
    const f = filters({ search_value: 'needle', activities: ['member.invited'] });
    expect(await allPages(f, 4, 20)).toEqual(expected);
    const head = await eventsRepository.head(db, TEAM);
    const second = await eventsRepository.page(db, TEAM, f, { page: 2, pageSize: 3, headSeq: head.seq, searchWindow: 20 });
    expect(second.map((r) => r.seq)).toEqual(expected.slice(3, 6));
  });

  it('counts what the pages show, up to the cap', async () => {
    const f = filters({ search_value: 'needle' });
    const all = (await plainScan(TEAM, '%needle%')).length;
    expect(await eventsRepository.count(db, TEAM, f, 1000)).toBe(all);
    expect(await eventsRepository.count(db, TEAM, f, 10)).toBe(10);
    expect(await eventsRepository.count(db, TEAM, filters({ search_value: 'needle', activities: ['group.created'] }), 1000)).toBe(
      (await plainScan(TEAM, '%needle%', 'group.created')).length,
    );
  });

  it('matches within one column and takes % and _ literally', async () => {
    // "Linux" ends device, "members" is component: together they span two columns.
    expect(await allPages(filters({ search_value: 'Linux members' }), 10, 10)).toEqual([]);
    expect(await allPages(filters({ search_value: 'Linux\x1fmembers' }), 10, 10)).toEqual([]);
    expect(await allPages(filters({ search_value: 'needle%' }), 10, 10)).toEqual([]);
    expect(await allPages(filters({ search_value: 'Vault_1' }), 10, 10)).toEqual([]);
  });

  it('the indexer catches up when told, and a sweep finds what it was not told of', async () => {
    const indexer = createSearchIndexer(db, { refreshMs: 0 });
    await indexer.nudge(TEAM);
    expect(await eventSearchRepository.progress(db, TEAM)).toBe(300);
    await indexer.sweep();
    expect(await eventSearchRepository.progress(db, OTHER)).toBe(50);
    expect(await eventSearchRepository.teamsBehind(db)).not.toContain(TEAM);
    // Fully indexed, the answer is the same.
    expect(await allPages(filters({ search_value: 'needle' }), 6, 30)).toEqual(await plainScan(TEAM, '%needle%'));
    await appendAll(TEAM, [event(301, { target: 'needle late' })]);
    expect(await eventSearchRepository.teamsBehind(db)).toContain(TEAM);
    expect((await allPages(filters({ search_value: 'needle late' }), 6, 30)).length).toBe(1);
    await indexer.stop();
  });

  it('is exact for the letters the index writes . @ _ - as, and for those characters themselves', async () => {
    await appendAll(TEAM, [event(302, { target: 'archaic ϙ and ϛ, then .@_-' })]);
    await createSearchIndexer(db, { refreshMs: 0 }).nudge(TEAM);
    for (const value of ['ϙ', 'ϙ and ϛ', '.@_-', 'then .', '@', 'ϛ, then'])
      expect(await allPages(filters({ search_value: value }), 20, 5), value).toEqual(
        await plainScan(TEAM, `%${value.replace(/_/g, '\\_')}%`),
      );
    expect((await allPages(filters({ search_value: 'ϙ' }), 20, 5)).length).toBe(1);
  });

  it('waits its refresh interval before indexing, and a stop ends the wait at once', async () => {
    await appendAll(TEAM, [event(303)]);
    const before = await eventSearchRepository.progress(db, TEAM);
    const indexer = createSearchIndexer(db, { refreshMs: 60_000 });
    void indexer.nudge(TEAM);
    await new Promise((r) => setTimeout(r, 200));
    expect(await eventSearchRepository.progress(db, TEAM)).toBe(before);
    const stopping = Date.now();
    await indexer.stop();
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(await eventSearchRepository.progress(db, TEAM)).toBe(before);
    const quick = createSearchIndexer(db, { refreshMs: 10 });
    await quick.nudge(TEAM);
    expect(await eventSearchRepository.progress(db, TEAM)).toBe(before + 1);
  });
});
