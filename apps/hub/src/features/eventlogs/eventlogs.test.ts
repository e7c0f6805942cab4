import { randomUUID } from 'node:crypto';
import type { EventRecord } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAuth, registerDevice, send } from '../../testing/clients.ts';
import { createHubDb, postSigned, type RunningHub, startHub, TEAM } from '../../testing/hub-fixture.ts';
import { checkChain, GENESIS_HASH } from './chain.ts';
import { eventsRepository, type NewEvent } from './eventlogs.repository.ts';

let db: Db;
let hub: RunningHub;
let admin: Record<string, string>;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
  admin = await consoleAuth(hub);
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

type Page = { results: EventRecord[]; total: number; pages: number; next_before_seq: number | null };
const fetchPage = (body: Record<string, unknown> = {}, query = '') =>
  send<Page>(hub, `/audit/logs/fetch/${query}`, { team_slug: TEAM, ...body }, admin);
const verify = (body: Record<string, unknown> = {}) =>
  send<{
    ok: boolean;
    checked: number;
    problem: { seq: number; kind: string } | null;
    problems: { seq: number; kind: string }[];
    problem_count: number;
  }>(hub, '/audit/logs/verify/', { team_slug: TEAM, ...body }, admin);
const serverEvent = (o: Partial<Record<string, unknown>> = {}) => ({
  id: randomUUID(),
  actor: 'alex@northwind.example',
  actor_type: 'admin',
  activity: 'member.invited',
  component: 'members',
  target: 'new@northwind.example',
  ip: '203.0.113.7',
  device: 'Chromium 140 on Linux',
  occurred_at: new Date().toISOString(),
  outcome: 'success',
  detail: { licence: true },
  ...o,
});

describe('the signed feed from the licence server', () => {
  it('stores each event once, however often a batch is sent', async () => {
    const events = [serverEvent(), serverEvent({ activity: 'auth.sign_in', component: 'auth', outcome: 'failure' })];
    const first = await postSigned(hub, '/api/v1/integrate/events/', { team_slug: TEAM, events });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ accepted: 2, duplicates: 0 });
    const again = await postSigned(hub, '/api/v1/integrate/events/', { team_slug: TEAM, events });
    expect(await again.json()).toEqual({ accepted: 0, duplicates: 2 });
    const [row] = await db.query<{ n: number }>('select count(*)::int as n from event_log where team_slug = $1', [TEAM]);
    expect(row?.n).toBe(2);
  });

  it('stores, of a batch partly stored before and holding one event twice, only the new event, once', async () => {
    const team = 'dedupe-team';
    const [a, b] = [serverEvent(), serverEvent({ target: 'late@northwind.example' })] as unknown as [NewEvent, NewEvent];
    expect(await db.transaction((tx) => eventsRepository.append(tx, team, [a]))).toBe(1);
    expect(await db.transaction((tx) => eventsRepository.append(tx, team, [a, b, { ...b }]))).toBe(1);
    const rows = await db.query<{ id: string }>('select id from event_log where team_slug = $1 order by seq', [team]);
    expect(rows.map((r) => r.id)).toEqual([a.id, b.id]);
  });

  it('refuses an unsigned batch', async () => {
    const res = await hub.post('/api/v1/integrate/events/', { team_slug: TEAM, events: [serverEvent()] });
    expect(res.status).toBe(401);
  });
});

describe('the apps events and the log', () => {
  beforeAll(async () => {
    const device = await registerDevice(hub, 'ava@northwind.example');
    const res = await send(
      hub,
      '/api/v1/client/events/',
      { events: [{ type: 'vault_unlocked', occurred_at: new Date().toISOString() }] },
      device,
    );
    expect(res.status).toBe(200);
    const events = Array.from({ length: 25 }, (_, i) =>
      serverEvent({
        activity: i % 2 ? 'group.created' : 'policy.updated',
        component: i % 2 ? 'groups' : 'policies',
        target: `t${i}`,
      }),
    );
    expect((await postSigned(hub, '/api/v1/integrate/events/', { team_slug: TEAM, events })).status).toBe(200);
  });

  it('lists newest first with page and page_size in the query, gap-free across pages', async () => {
    const one = await fetchPage({}, '?page=1&page_size=10');
    expect(one.status).toBe(200);
    expect(one.body.total).toBe(28);
    expect(one.body.pages).toBe(3);
    const seqs = one.body.results.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    const two = await fetchPage({}, '?page=2&page_size=10');
    expect(two.body.results[0]?.seq).toBe((seqs.at(-1) ?? 0) - 1);
    const three = await fetchPage({}, '?page=3&page_size=10');
    expect(three.body.results).toHaveLength(8);
    expect(three.body.next_before_seq).toBeNull();
  });

  it('records the apps events as the member, with the device', async () => {
    const res = await fetchPage({ filters: { components: ['app'] } });
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0]).toMatchObject({
      actor: 'ava@northwind.example',
      actor_type: 'app',
      activity: 'app.vault_unlocked',
    });
  });

  it('filters by activity, component, actor, IP, dates and free text; keyset with before_seq', async () => {
    const groups = await fetchPage({ page_size: 5, filters: { activities: ['group.created'] } });
    expect(groups.body.total).toBe(12);
    expect(groups.body.results.every((r) => r.activity === 'group.created')).toBe(true);
    const next = await fetchPage({
      page_size: 5,
      filters: { activities: ['group.created'] },
      before_seq: groups.body.next_before_seq,
    });
    expect(next.body.results[0]?.seq).toBeLessThan(groups.body.results.at(-1)?.seq ?? 0);
    const found = await fetchPage({ filters: { search_value: 't13' } });
    expect(found.body.results.map((r) => r.target)).toEqual(['t13']);
    // A search is counted too (up to EVENT_SEARCH_COUNT_CAP), so the console shows "1–1 of 1".
    expect(found.body).toMatchObject({ total: 1, pages: 1, next_before_seq: null });
    const common = await fetchPage({ page_size: 5, filters: { search_value: 'group.created' } });
    expect(common.body).toMatchObject({ total: 12, pages: 3 });
    expect(common.body.results).toHaveLength(5);
    expect((await fetchPage({ filters: { ip_addresses: ['198.51.100.1'] } })).body.total).toBe(0);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await fetchPage({ filters: { dates: { start_timestamp: future, end_timestamp: null } } })).body.total).toBe(0);
    expect((await fetchPage({ filters: { actors: ['alex@northwind.example'], components: ['auth'] } })).body.total).toBe(1);
  });

  it('offers the filter options the team has', async () => {
    const res = await send<Record<string, string[]>>(hub, '/audit/logs/filters/fetch/', { team_slug: TEAM }, admin);
    expect(res.body.activities).toEqual(expect.arrayContaining(['group.created', 'policy.updated', 'app.vault_unlocked']));
    expect(res.body.components).toEqual(expect.arrayContaining(['groups', 'policies', 'app', 'auth', 'members']));
    expect(res.body.ip_addresses).toEqual(['203.0.113.7']);
  });

  it('is not open to a role without the event logs', async () => {
    const integrator = await consoleAuth(hub, ['integrator'], 'int@northwind.example');
    expect((await send(hub, '/audit/logs/fetch/', { team_slug: TEAM }, integrator)).status).toBe(403);
  });

  it('exports the filter as CSV and NDJSON, streamed, and the export re-verifies on its own', async () => {
    const ndjson = await hub.post('/audit/logs/export/', { team_slug: TEAM, format: 'ndjson' }, admin);
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers.get('x-total-count')).toBe('28');
    const rows = (await ndjson.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as EventRecord);
    expect(rows).toHaveLength(28);
    // A third party's check: only the export and the documented canonical form.
    const chained = rows.map((r) => ({ ...r, team_slug: TEAM }));
    expect(checkChain(chained, { seq: 1, prevHash: GENESIS_HASH }).problems).toEqual([]);
    const csv = await hub.post(
      '/audit/logs/export/',
      { team_slug: TEAM, format: 'csv', filters: { components: ['groups'] } },
      admin,
    );
    const lines = (await csv.text()).trim().split('\n');
    expect(lines[0]).toBe(
      'seq,id,occurred_at,recorded_at,actor,actor_type,activity,activity_label,component,target,ip,device,outcome,detail,prev_hash,hash',
    );
    expect(lines).toHaveLength(13);
    expect(csv.headers.get('content-type')).toContain('text/csv');
  });
});

describe('the hash chain', () => {
  it('verifies, then detects a changed row, a deleted row and a removed last row', async () => {
    expect((await verify()).body).toMatchObject({ ok: true, checked: 28, problem: null });
    const [row] = await db.query<{ target: string }>('select target from event_log where team_slug = $1 and seq = 10', [TEAM]);
    await db.query(`update event_log set target = 'someone-else' where team_slug = $1 and seq = 10`, [TEAM]);
    expect((await verify()).body).toMatchObject({ ok: false, problem: { seq: 10, kind: 'hash' } });
    expect((await verify({ from_seq: 11 })).body.ok).toBe(true);
    await db.query('update event_log set target = $2 where team_slug = $1 and seq = 10', [TEAM, row?.target]);
    expect((await verify()).body.ok).toBe(true);

    const [saved] = await db.query<Record<string, unknown>>('select * from event_log where team_slug = $1 and seq = 5', [TEAM]);
    await db.query('delete from event_log where team_slug = $1 and seq = 5', [TEAM]);
    expect((await verify()).body).toMatchObject({ ok: false, problem: { seq: 5, kind: 'gap' } });
    // Re-hashing the rest after a deletion still breaks at the head the Hub keeps.
    const cols = Object.keys(saved ?? {});
    await db.query(
      `insert into event_log (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
      cols.map((c) => (c === 'detail' ? JSON.stringify(saved?.[c]) : saved?.[c])),
    );
    expect((await verify()).body.ok).toBe(true);

    await db.query('delete from event_log where team_slug = $1 and seq = 28', [TEAM]);
    expect((await verify()).body).toMatchObject({ ok: false, problem: { kind: 'gap' } });
  });

  it('reports every break, in seq order, so an early one hides none after it; a range verifies on its own', async () => {
    const snapshot = await db.query<Record<string, unknown>>('select * from event_log where team_slug = $1 order by seq', [TEAM]);
    // The test before left the last row removed: one gap at the end.
    const before = (await verify()).body;
    expect(before).toMatchObject({ problems: [{ seq: 28, kind: 'gap' }], problem_count: 1 });
    try {
      // A removed row, a changed one, a replaced link (which changes that row's hash too) and a removed run at the end.
      await db.query('delete from event_log where team_slug = $1 and seq = 5', [TEAM]);
      await db.query(`update event_log set target = 'someone-else' where team_slug = $1 and seq = 10`, [TEAM]);
      await db.query(`update event_log set prev_hash = repeat('a', 64) where team_slug = $1 and seq = 20`, [TEAM]);
      await db.query('delete from event_log where team_slug = $1 and seq >= 27', [TEAM]);
      expect((await verify()).body).toMatchObject({
        ok: false,
        checked: 25,
        problem: { seq: 5, kind: 'gap' },
        problems: [
          { seq: 5, kind: 'gap' },
          { seq: 10, kind: 'hash' },
          { seq: 20, kind: 'link' },
          { seq: 20, kind: 'hash' },
          { seq: 27, kind: 'gap' },
        ],
        problem_count: 5,
      });
      // A range checks what it holds: after the removed row, and up to the replaced link.
      expect((await verify({ from_seq: 6, to_seq: 9 })).body).toMatchObject({ ok: true, problems: [], problem_count: 0 });
      expect((await verify({ from_seq: 11, to_seq: 25 })).body.problems).toEqual([
        { seq: 20, kind: 'link' },
        { seq: 20, kind: 'hash' },
      ]);
    } finally {
      // The rows as they were; what the verifies appended since (their findings, at the head) stays.
      await db.query('delete from event_log where team_slug = $1 and seq <= $2', [TEAM, snapshot.at(-1)?.seq]);
      for (const row of snapshot) {
        const cols = Object.keys(row);
        await db.query(
          `insert into event_log (${cols.join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
          cols.map((c) => (c === 'detail' ? JSON.stringify(row[c]) : row[c])),
        );
      }
    }
    // The same break as before, and the chain grown by what the verifies recorded, each new finding once:
    // the five and the range's two (the break before was recorded by the test before; a range without a problem adds none).
    const after = (await verify()).body;
    expect(after).toMatchObject({ ok: false, problems: before.problems, problem_count: before.problem_count });
    const recorded = await db.query<{ detail: { problem_count: number }; actor: string }>(
      `select detail, actor from event_log
        where team_slug = $1 and seq > $2 and activity = 'event_logs.verification_failed' order by seq`,
      [TEAM, snapshot.at(-1)?.seq],
    );
    expect(recorded.map((r) => r.detail.problem_count)).toEqual([5, 2]);
    expect(new Set(recorded.map((r) => r.actor)).size).toBe(1);
  });
});

describe("the Hub's own actions", () => {
  it('records a share created by a member and revoked by an admin', async () => {
    const device = await registerDevice(hub, 'sia@northwind.example');
    const share = await send<{ share_id: string }>(
      hub,
      '/api/v1/client/shares/create/',
      { label: 'wifi', expires_in_hours: 1, view_limit: 1 },
      device,
    );
    expect(share.status).toBe(200);
    await send(hub, '/api/v1/sharing/links/revoke/', { team_slug: TEAM, share_ids: [share.body.share_id] }, admin);
    const res = await fetchPage({ filters: { components: ['sharing'] } });
    expect(res.body.results.map((r) => [r.activity, r.actor, r.actor_type, r.target])).toEqual([
      ['share.revoked', 'alex@northwind.example', 'admin', share.body.share_id],
      ['share.created', 'sia@northwind.example', 'member', share.body.share_id],
    ]);
  });
});

describe('the pull API for SIEMs that poll', () => {
  const pull = (query: string, token: string) =>
    fetch(`${hub.url}/api/v1/events/pull/${query}`, { headers: { authorization: `Bearer ${token}` } });

  it('reads oldest first with a stable cursor, natively or as OCSF, with its own revocable token', async () => {
    const made = await send<{ token: string; created_at: string }>(
      hub,
      '/audit/logs/pull/token/',
      { team_slug: TEAM, action: 'create' },
      admin,
    );
    expect(made.body.token).toMatch(/^lkpull_/);
    const [stored] = await db.query<{ token_hash: string }>('select token_hash from event_pull_tokens where team_slug = $1', [
      TEAM,
    ]);
    expect(stored?.token_hash).not.toContain(made.body.token);

    const first = (await (await pull('?limit=5', made.body.token)).json()) as {
      events: { seq: number }[];
      next_cursor: string;
      has_more: boolean;
    };
    expect(first.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(first.has_more).toBe(true);
    const next = (await (await pull(`?limit=5&cursor=${first.next_cursor}`, made.body.token)).json()) as {
      events: { seq: number }[];
    };
    expect(next.events[0]?.seq).toBe(6);

    const ocsfRes = await pull('?limit=100&format=ocsf', made.body.token);
    const ocsfText = await ocsfRes.text();
    expect(ocsfRes.status, ocsfText).toBe(200);
    const ocsf = JSON.parse(ocsfText) as {
      events: { class_uid: number; activity_name: string; status: string; message: string }[];
    };
    const failedSignIn = ocsf.events.find((e) => e.message === 'auth.sign_in');
    expect(failedSignIn).toMatchObject({ class_uid: 3002, activity_name: 'Logon', status: 'Failure' });
    expect(ocsf.events.find((e) => e.message === 'group.created')).toMatchObject({ class_uid: 3001, activity_name: 'Create' });

    expect((await pull('', 'lkpull_wrong')).status).toBe(401);
    expect((await pull('', '')).status).toBe(401);
    // A console token is not a pull token.
    expect((await pull('', admin.authorization?.slice(7) ?? '')).status).toBe(401);
    await send(hub, '/audit/logs/pull/token/', { team_slug: TEAM, action: 'revoke' }, admin);
    expect((await pull('', made.body.token)).status).toBe(401);

    const doc = (await (await fetch(`${hub.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(doc.paths['/api/v1/events/pull/']).toBeDefined();
  });
});

// Last: it adds an event, which the counts above do not expect.
describe('date ranges and search (migration 0012)', () => {
  it('finds by date an event that arrived late (its seq is new, its time old), and only by whole columns in search', async () => {
    const old = new Date(Date.now() - 3 * 86_400_000);
    const late = serverEvent({ occurred_at: old.toISOString(), target: 'late@northwind.example' });
    expect((await postSigned(hub, '/api/v1/integrate/events/', { team_slug: TEAM, events: [late] })).status).toBe(200);
    const at = Math.floor(old.getTime() / 1000);
    const around = await fetchPage({ filters: { dates: { start_timestamp: at - 60, end_timestamp: at + 60 } } });
    expect(around.body.results.map((r) => r.id)).toEqual([late.id]);
    expect(around.body.total).toBe(1);
    const before = await fetchPage({ filters: { dates: { start_timestamp: null, end_timestamp: at + 60 } } });
    expect(before.body.results.map((r) => r.id)).toEqual([late.id]);
    const since = await fetchPage({ page_size: 100, filters: { dates: { start_timestamp: at + 3600, end_timestamp: null } } });
    expect(since.body.results.length).toBeGreaterThan(1);
    expect(since.body.results.map((r) => r.id)).not.toContain(late.id);
    // A term that spans two columns (activity, then IP) is in the index's text but in no column.
    expect((await fetchPage({ filters: { search_value: 'member.invited 203' } })).body.results).toEqual([]);
    expect((await fetchPage({ filters: { search_value: 'LATE@northwind' } })).body.results.map((r) => r.id)).toEqual([late.id]);
  });
});
