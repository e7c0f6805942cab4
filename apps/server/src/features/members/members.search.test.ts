import type { MemberFilters } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { createTestDb } from '@latchkey/runtime/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';
import { seedDemo } from '../demo/index.ts';
import { membersRepository } from './members.repository.ts';

// A team larger than the search walk (members.repository.ts SEARCH_WALK), so each path of a search
// is taken: a common term found by the walk, a rare one only through the trigram index, and one
// whose matches all lie beyond the walk.
let db: Db;
let teamId: string;
beforeAll(async () => {
  db = await createTestDb(MIGRATIONS_DIR);
  await seedDemo(db, {});
  teamId = (await db.query<{ id: string }>(`select id from teams where slug = 'northwind'`))[0]?.id as string;
  await db.query(
    `insert into members (team_id, email, name, licensed, usage)
     select $1, 'walk.' || lpad(g::text, 5, '0') || '@search.example',
       case when g % 7 = 0 then 'Zephyr ' || g when g in (3, 9101, 11990) then 'Quokka ' || g
            when g > 8000 and g % 50 = 0 then 'Late Bloomer' else 'Member ' || g end,
       g % 3 <> 0, (array['active', 'inactive', 'unresponsive'])[1 + g % 3]
     from generate_series(1, 12000) as g`,
    [teamId],
  );
}, 60_000);
afterAll(() => db?.close());

/** Every page of a search, by cursor, as the console asks for them. */
async function allPages(filters: MemberFilters): Promise<string[]> {
  const seen: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await membersRepository.page(db, teamId, filters, after, 10);
    seen.push(...page.map((m) => m.email));
    if (page.length < 10) return seen;
    after = page.at(-1)?.email;
  }
}

/** The same search, naively: every current member checked, then sorted. */
async function reference(term: string, where = 'true'): Promise<string[]> {
  const rows = await db.query<{ email: string }>(
    `select email from members where team_id = $1 and deboarded_at is null
       and strpos(lower(email || ' ' || name), lower($2)) > 0 and ${where} order by email`,
    [teamId, term],
  );
  return rows.map((r) => r.email);
}

describe('member search on a team larger than the walk', () => {
  test('a common term: every match once, in email order', async () => {
    const found = await allPages({ search_value: 'zephyr' });
    expect(found.length).toBe(1714);
    expect(found).toEqual(await reference('zephyr'));
  });

  test('a rare term, found only through the trigram index', async () => {
    expect(await allPages({ search_value: 'QUOKKA' })).toEqual(await reference('quokka'));
    expect(await reference('quokka')).toHaveLength(3);
  });

  test('matches that all lie beyond the walk', async () => {
    const found = await allPages({ search_value: 'late bloomer' });
    expect(found).toHaveLength(68);
    expect(found).toEqual(await reference('late bloomer'));
  });

  test('with licence and usage filters', async () => {
    const found = await allPages({ search_value: 'zephyr', license_status: ['unlicensed'], app_usage: ['active'] });
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(await reference('zephyr', `not licensed and usage = 'active'`));
  });
});
