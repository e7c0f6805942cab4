import { randomUUID } from 'node:crypto';
import { type HubTokens, SAVED_SEARCHES_PER_ADMIN, type SavedSearch, type Scope } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import { consoleAuth, hubWithTwoSuperAdmins, send } from '../../testing/clients.ts';
import { registerTeam, signGrant, TEAM } from '../../testing/hub-fixture.ts';

// Saved searches over HTTP: who sees and manages which (the event log's rule, private and shared),
// the input rules and the per-admin limit, and the log's record of shared ones.

const at = hubWithTwoSuperAdmins();

const FAILED_SIGN_INS = { activities: ['auth.sign_in_failed'], search_value: '203.0.113.7' };

type ErrorBody = { code: string; message_key?: string };
const list = (who: Record<string, string>, team = TEAM) =>
  send<{ searches: SavedSearch[] } & ErrorBody>(at.hub, '/audit/logs/searches/fetch/', { team_slug: team }, who);
const create = (who: Record<string, string>, body: Record<string, unknown>, team = TEAM) =>
  send<SavedSearch & ErrorBody>(at.hub, '/audit/logs/searches/create/', { team_slug: team, ...body }, who);
const update = (who: Record<string, string>, body: Record<string, unknown>, team = TEAM) =>
  send<SavedSearch & ErrorBody>(at.hub, '/audit/logs/searches/update/', { team_slug: team, ...body }, who);
const remove = (who: Record<string, string>, id: string, team = TEAM) =>
  send<{ deleted: boolean } & ErrorBody>(at.hub, '/audit/logs/searches/delete/', { team_slug: team, id }, who);

/** A session on a team of its own (registered here), with the given services and plan. */
async function otherTeam(team: string, o: { services?: Parameters<typeof registerTeam>[4]; scopes?: Scope[] } = {}) {
  const kid = `cred-${team}`;
  await registerTeam(at.db, team, kid, 'http://127.0.0.1:9', o.services);
  const res = await at.hub.post(
    '/auth/token/',
    { team_slug: team, device: { browser: 'Chromium' } },
    { authorization: `Bearer ${await signGrant({ teamSlug: team, kid, scopes: o.scopes ?? ['super_admin'] })}` },
  );
  expect(res.status).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as HubTokens).access}` };
}

const sharedEvents = () =>
  at.db.query<{ activity: string; actor: string; target: string }>(
    `select activity, actor, target from event_log where team_slug = $1 and activity like 'event_logs.search_%' order by seq`,
    [TEAM],
  );

describe('saving and listing', () => {
  it('saves private and shared searches with the filters as the log reads them; each admin sees theirs and the shared ones', async () => {
    const mine = await create(at.alex, { name: 'My failed sign-ins', filters: FAILED_SIGN_INS });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      name: 'My failed sign-ins',
      shared: false,
      owner: 'alex@northwind.example',
      can_manage: true,
    });
    // The filters come back whole, their defaults filled in (the event search filter schema).
    expect(mine.body.filters).toEqual({
      activities: ['auth.sign_in_failed'],
      actors: [],
      components: [],
      ip_addresses: [],
      dates: { start_timestamp: null, end_timestamp: null },
      search_value: '203.0.113.7',
    });
    const team = await create(at.alex, { name: 'Policy changes', shared: true, filters: { components: ['policies'] } });
    expect(team.status).toBe(200);
    expect(team.body.shared).toBe(true);

    expect((await list(at.alex)).body.searches.map((s) => s.name)).toEqual(['My failed sign-ins', 'Policy changes']);
    const seen = (await list(at.blair)).body.searches;
    expect(seen.map((s) => s.name)).toEqual(['Policy changes']);
    // Every super admin manages the shared ones; only its author may take one back from the team.
    expect(seen[0]).toMatchObject({ can_manage: true, can_change_sharing: false });
    expect(team.body.can_change_sharing).toBe(true);
  });

  it('refuses a name already in use among the searches the admin sees, whatever its case', async () => {
    const again = await create(at.alex, { name: 'policy CHANGES', filters: {} });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict', message_key: 'errors.saved_search_name_taken' });
    // Another admin's private search does not take the name from blair.
    expect((await create(at.blair, { name: 'My failed sign-ins', filters: {} })).status).toBe(200);
  });

  it('refuses a blank or too long name and filters outside the event search schema, as invalid input', async () => {
    for (const body of [
      { name: '   ', filters: {} },
      { name: 'x'.repeat(81), filters: {} },
      { name: 'Bad', filters: { activities: 'auth.sign_in' } },
      { name: 'Bad', filters: { activities: Array.from({ length: 51 }, (_, i) => `a${i}`) } },
      { name: 'Bad', filters: { dates: { start_timestamp: -1 } } },
      { name: 'Bad', filters: { search_value: 'x'.repeat(101) } },
      { name: 'Bad' },
    ]) {
      const res = await create(at.alex, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_input');
    }
  });

  it(`keeps at most ${SAVED_SEARCHES_PER_ADMIN} searches per admin, with a clear error past it`, async () => {
    const admin = await consoleAuth(at.hub, ['super_admin'], 'casey@northwind.example');
    for (let i = 0; i < SAVED_SEARCHES_PER_ADMIN - 1; i++)
      await at.db.query(
        `insert into event_saved_searches (id, team_slug, owner, name, filters) values ($1, $2, 'casey@northwind.example', $3, '{}')`,
        [randomUUID(), TEAM, `Search ${i}`],
      );
    expect((await create(admin, { name: 'The last one', filters: {} })).status).toBe(200);
    const over = await create(admin, { name: 'One too many', filters: {} });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'saved_search_limit_exceeded', message_key: 'errors.saved_search_limit_exceeded' });
    // Another admin is not held by casey's count.
    expect((await create(at.blair, { name: 'Blair’s own', filters: {} })).status).toBe(200);
  });
  it('holds the limit under saves at the same moment: of five at 98 saved, two are stored', async () => {
    const admin = await consoleAuth(at.hub, ['super_admin'], 'dana@northwind.example');
    for (let i = 0; i < SAVED_SEARCHES_PER_ADMIN - 2; i++)
      await at.db.query(
        `insert into event_saved_searches (id, team_slug, owner, name, filters) values ($1, $2, 'dana@northwind.example', $3, '{}')`,
        [randomUUID(), TEAM, `Search ${i}`],
      );
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => create(admin, { name: `At once ${i}`, filters: {} })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 409, 409, 409]);
    const [row] = await at.db.query<{ n: number }>(
      `select count(*)::int as n from event_saved_searches where team_slug = $1 and owner = 'dana@northwind.example'`,
      [TEAM],
    );
    expect(row?.n).toBe(SAVED_SEARCHES_PER_ADMIN);
  });
});

describe('renaming, updating and deleting', () => {
  it('lets the author change their private search, and hides it from every other admin (not found)', async () => {
    const mine = (await create(at.alex, { name: 'Private to alex', filters: { actors: ['ava@northwind.example'] } })).body;
    const renamed = await update(at.alex, {
      id: mine.id,
      name: 'Ava’s actions',
      filters: { actors: ['ava@northwind.example'], search_value: 'vault' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Ava’s actions', filters: { search_value: 'vault' } });

    for (const call of [update(at.blair, { id: mine.id, name: 'Taken over' }), remove(at.blair, mine.id)]) {
      const res = await call;
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', message_key: 'errors.saved_search_not_found' });
    }
    expect((await remove(at.alex, mine.id)).body).toEqual({ deleted: true });
    expect((await remove(at.alex, mine.id)).status).toBe(404);
    expect(await sharedEvents()).not.toContainEqual(expect.objectContaining({ target: 'Ava’s actions' }));
  });

  it('lets any super admin update and delete a shared search, each change an event in the log', async () => {
    const shared = (await create(at.alex, { name: 'Admins added', shared: true, filters: { activities: ['admin.added'] } })).body;
    const renamed = await update(at.blair, { id: shared.id, name: 'Administrators added' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ owner: 'alex@northwind.example', filters: { activities: ['admin.added'] } });
    expect((await remove(at.blair, shared.id)).status).toBe(200);
    expect((await list(at.alex)).body.searches.map((s) => s.id)).not.toContain(shared.id);

    const events = (await sharedEvents()).filter((e) => e.target.startsWith('Admin'));
    expect(events).toEqual([
      { activity: 'event_logs.search_saved', actor: 'alex@northwind.example', target: 'Admins added' },
      { activity: 'event_logs.search_updated', actor: 'blair@northwind.example', target: 'Administrators added' },
      { activity: 'event_logs.search_deleted', actor: 'blair@northwind.example', target: 'Administrators added' },
    ]);
  });

  it('answers an unknown or malformed id as not found or invalid input, never a server error', async () => {
    expect((await update(at.alex, { id: randomUUID(), name: 'Nothing' })).status).toBe(404);
    expect((await remove(at.alex, 'not-a-uuid')).status).toBe(400);
  });
});

describe('who may', () => {
  it('keeps each team to its own searches: an id of another team is not found there', async () => {
    const contoso = await otherTeam('contoso');
    const theirs = (await create(contoso, { name: 'Contoso shared', shared: true, filters: {} }, 'contoso')).body;
    expect((await list(at.alex)).body.searches.map((s) => s.name)).not.toContain('Contoso shared');
    expect((await update(at.alex, { id: theirs.id, name: 'Stolen' })).status).toBe(404);
    expect((await remove(at.alex, theirs.id)).status).toBe(404);
    // A Northwind session naming the other team is refused by the guard.
    expect((await list(at.alex, 'contoso')).status).toBe(403);
  });

  it('refuses an admin without super admin scope every saved-search call (the event log rule), shared or not', async () => {
    const shared = (await create(at.alex, { name: 'Only for super admins', shared: true, filters: {} })).body;
    const admin = await consoleAuth(at.hub, ['admin'], 'drew@northwind.example');
    for (const res of [
      await list(admin),
      await create(admin, { name: 'Mine', filters: {} }),
      await create(admin, { name: 'Shared by drew', shared: true, filters: {} }),
      await update(admin, { id: shared.id, name: 'Edited by a plain admin' }),
      await update(admin, { id: shared.id, shared: false }),
      await remove(admin, shared.id),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect((await list(at.alex)).body.searches.map((s) => s.name)).toContain('Only for super admins');
  });

  it('refuses a team on a plan without event logs, and one whose event-logs service is off', async () => {
    const res = await at.hub.post(
      '/auth/token/',
      { team_slug: TEAM, device: { browser: 'Chromium' } },
      { authorization: `Bearer ${await signGrant({ organizationType: 'teams' })}` },
    );
    const basic = { authorization: `Bearer ${((await res.json()) as HubTokens).access}` };
    for (const r of [await list(basic), await create(basic, { name: 'On teams', filters: {} })]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('forbidden');
    }
    const off = await otherTeam('no-logs', { services: ['integration', 'audit'] });
    for (const r of [await list(off, 'no-logs'), await create(off, { name: 'Off', filters: {} }, 'no-logs')]) {
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: 'service_disabled', message_key: 'errors.service_disabled' });
    }
  });
});
