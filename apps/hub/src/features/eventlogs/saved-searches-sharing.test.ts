import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SavedSearch } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';
import { consoleAuth, hubWithTwoSuperAdmins, send } from '../../testing/clients.ts';
import { TEAM } from '../../testing/hub-fixture.ts';

// Saved searches switched between private and shared after saving (who may, the log's record),
// and names kept unique where admins see them side by side, also under saves at the same instant.

const at = hubWithTwoSuperAdmins();

type Reply = SavedSearch & { code: string; message_key?: string };
const list = async (who: Record<string, string>) =>
  (await send<{ searches: SavedSearch[] }>(at.hub, '/audit/logs/searches/fetch/', { team_slug: TEAM }, who)).body.searches;
const create = (who: Record<string, string>, body: Record<string, unknown>) =>
  send<Reply>(at.hub, '/audit/logs/searches/create/', { team_slug: TEAM, filters: {}, ...body }, who);
const update = (who: Record<string, string>, body: Record<string, unknown>) =>
  send<Reply>(at.hub, '/audit/logs/searches/update/', { team_slug: TEAM, ...body }, who);
const sharingEvents = () =>
  at.db.query<{ actor: string; target: string; detail: { search_id: string; shared: boolean } }>(
    `select actor, target, detail from event_log where team_slug = $1 and activity = 'event_logs.search_sharing_changed' order by seq`,
    [TEAM],
  );

describe('switching a saved search between private and shared', () => {
  it('lets the author share a private search and take it back, each switch an event; others see it only while shared', async () => {
    const mine = (await create(at.alex, { name: 'Vault exports' })).body;
    expect(mine).toMatchObject({ shared: false, can_change_sharing: true });
    expect((await list(at.blair)).map((s) => s.id)).not.toContain(mine.id);

    const shared = await update(at.alex, { id: mine.id, shared: true });
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ shared: true, owner: 'alex@northwind.example', can_change_sharing: true });
    const seen = (await list(at.blair)).find((s) => s.id === mine.id);
    // Blair manages it like any shared search, but may not take it from the team.
    expect(seen).toMatchObject({ shared: true, can_manage: true, can_change_sharing: false });

    const back = await update(at.alex, { id: mine.id, shared: false });
    expect(back.status).toBe(200);
    expect(back.body.shared).toBe(false);
    expect((await list(at.blair)).map((s) => s.id)).not.toContain(mine.id);

    expect(await sharingEvents()).toEqual([
      { actor: 'alex@northwind.example', target: 'Vault exports', detail: { search_id: mine.id, shared: true } },
      { actor: 'alex@northwind.example', target: 'Vault exports', detail: { search_id: mine.id, shared: false } },
    ]);
  });

  it("refuses another super admin making a shared search private (it would vanish from its author's view)", async () => {
    const theirs = (await create(at.alex, { name: 'Team sign-ins', shared: true })).body;
    const res = await update(at.blair, { id: theirs.id, shared: false, name: 'Blair’s now' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden', message_key: 'errors.saved_search_unshare_owner_only' });
    // Nothing of the call took effect: not the name, not the sharing, and no event.
    expect((await list(at.alex)).find((s) => s.id === theirs.id)).toMatchObject({ name: 'Team sign-ins', shared: true });
    expect((await sharingEvents()).map((e) => e.target)).not.toContain('Team sign-ins');
    // Setting what it already is changes nothing and is no switch.
    expect((await update(at.blair, { id: theirs.id, shared: true })).status).toBe(200);
  });

  it('refuses sharing a search whose name a shared one already has, and making private one whose name the author keeps', async () => {
    const own = (await create(at.blair, { name: 'Failed logins' })).body;
    await create(at.alex, { name: 'Failed logins', shared: true });
    const clash = await update(at.blair, { id: own.id, shared: true });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: 'conflict', message_key: 'errors.saved_search_name_taken' });
    expect((await list(at.blair)).find((s) => s.id === own.id)?.shared).toBe(false);
  });

  it('refuses a plain admin the switch, as every saved-search call', async () => {
    const mine = (await create(at.alex, { name: 'Plain admin target' })).body;
    const admin = await consoleAuth(at.hub, ['admin'], 'drew@northwind.example');
    expect((await update(admin, { id: mine.id, shared: true })).status).toBe(403);
  });
});

describe('unique names under saves at the same instant', () => {
  it('stores one of two shared searches of the same name saved at once by two admins; the other gets the name-taken error', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `Saved at once ${round}`;
      const answers = await Promise.all([create(at.alex, { name, shared: true }), create(at.blair, { name, shared: true })]);
      expect(answers.map((a) => a.status).sort(), name).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)?.body).toMatchObject({
        code: 'conflict',
        message_key: 'errors.saved_search_name_taken',
      });
    }
    const [row] = await at.db.query<{ n: number }>(
      `select count(*)::int as n from event_saved_searches where team_slug = $1 and name like 'Saved at once %'`,
      [TEAM],
    );
    expect(row?.n).toBe(5);
  });

  it('keeps two renames of an admin’s private searches to one name at once from both landing', async () => {
    for (let round = 0; round < 5; round++) {
      const a = (await create(at.alex, { name: `Rename me A${round}` })).body;
      const b = (await create(at.alex, { name: `Rename me B${round}` })).body;
      const name = `Renamed at once ${round}`;
      const answers = await Promise.all([update(at.alex, { id: a.id, name }), update(at.alex, { id: b.id, name })]);
      expect(answers.map((r) => r.status).sort(), name).toEqual([200, 409]);
      expect(answers.find((r) => r.status === 409)?.body.message_key).toBe('errors.saved_search_name_taken');
    }
  });
});

describe('the migration of existing names', () => {
  it('renames all but the oldest of names saved twice before the unique indexes, then builds them', async () => {
    const team = 'dup-team';
    await at.db.exec('drop index event_saved_searches_shared_name; drop index event_saved_searches_private_name');
    const long = 'L'.repeat(80);
    const rows: [string, string, string, boolean, string][] = [
      ['00000000-0000-4000-8000-000000000001', 'a@x.example', 'Same', true, '2026-01-01'],
      ['00000000-0000-4000-8000-000000000002', 'b@x.example', 'same', true, '2026-01-02'],
      ['00000000-0000-4000-8000-000000000003', 'a@x.example', long, false, '2026-01-01'],
      ['00000000-0000-4000-8000-000000000004', 'a@x.example', long, false, '2026-01-02'],
      // Another author's private search of the same name is no duplicate.
      ['00000000-0000-4000-8000-000000000005', 'b@x.example', long, false, '2026-01-03'],
    ];
    for (const [id, owner, name, shared, savedAt] of rows)
      await at.db.query(
        `insert into event_saved_searches (id, team_slug, owner, name, shared, filters, created_at) values ($1, $2, $3, $4, $5, '{}', $6)`,
        [id, team, owner, name, shared, savedAt],
      );
    await at.db.exec(readFileSync(join(MIGRATIONS_DIR, '0023_saved_search_unique_names.sql'), 'utf8'));
    const names = await at.db.query<{ id: string; name: string }>(
      'select id::text, name from event_saved_searches where team_slug = $1 order by id',
      [team],
    );
    expect(names.map((r) => r.name)).toEqual(['Same', 'same (00000000)', long, `${'L'.repeat(69)} (00000000)`, long]);
    await expect(
      at.db.query(
        `insert into event_saved_searches (id, team_slug, owner, name, shared, filters) values ($1, $2, 'c@x.example', 'SAME', true, '{}')`,
        ['00000000-0000-4000-8000-000000000006', team],
      ),
    ).rejects.toMatchObject({ code: '23505' });
  });
});
