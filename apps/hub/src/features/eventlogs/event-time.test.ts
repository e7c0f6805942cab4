import { randomUUID } from 'node:crypto';
import type { EventRecord } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAuth, registerDevice, send } from '../../testing/clients.ts';
import { createHubDb, postSigned, type RunningHub, startHub, TEAM } from '../../testing/hub-fixture.ts';
import { eventHash } from './chain.ts';
import { eventsRepository } from './eventlogs.repository.ts';
import { createEventsService } from './eventlogs.service.ts';

/**
 * An event's time is bounded (2000-01-01 … one day after the Hub's clock) and hashed exactly as it
 * is stored and read back, on PGlite and PostgreSQL alike (this file runs on both).
 */
let db: Db;
let hub: RunningHub;
let admin: Record<string, string>;
let device: Record<string, string>;

beforeAll(async () => {
  db = await createHubDb();
  hub = await startHub(db);
  admin = await consoleAuth(hub);
  device = await registerDevice(hub, 'ava@northwind.example');
});
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

type Refusal = { code: string; message_key?: string; issues: { path: string; message: string }[] };
const DAY = 86_400_000;
const stored = async () =>
  (await db.query<{ n: number }>('select count(*)::int as n from event_log where team_slug = $1', [TEAM]))[0]?.n ?? 0;
const verify = () =>
  send<{ ok: boolean; checked: number }>(hub, '/audit/logs/verify/', { team_slug: TEAM }, admin).then((r) => r.body);
const serverEvent = (occurred_at: string) => ({
  id: randomUUID(),
  actor: 'alex@northwind.example',
  actor_type: 'admin',
  activity: 'group.created',
  component: 'groups',
  target: occurred_at,
  occurred_at,
});

describe('event time bounds', () => {
  it("refuses an app's batch holding a time before 2000 or over a day ahead, naming each such event, and stores none of it", async () => {
    const before = await stored();
    const res = await send<Refusal>(
      hub,
      '/api/v1/client/events/',
      {
        events: [
          { type: 'vault_unlocked', occurred_at: new Date().toISOString() },
          { type: 'vault_unlocked', occurred_at: '0099-06-01T00:00:00Z' },
          { type: 'item_created', occurred_at: new Date(Date.now() + 2 * DAY).toISOString() },
        ],
      },
      device,
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_input');
    expect(res.body.issues).toEqual([
      { path: 'events.1.occurred_at', message: 'errors.event_time_out_of_range' },
      { path: 'events.2.occurred_at', message: 'errors.event_time_out_of_range' },
    ]);
    expect(await stored()).toBe(before);
    expect(await verify()).toMatchObject({ ok: true });
  });

  it("refuses the licence server's batch the same way", async () => {
    const before = await stored();
    const res = await postSigned(hub, '/api/v1/integrate/events/', {
      team_slug: TEAM,
      events: [serverEvent(new Date().toISOString()), serverEvent('1999-12-31T23:59:59.999Z')],
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Refusal).issues).toEqual([
      { path: 'events.1.occurred_at', message: 'errors.event_time_out_of_range' },
    ]);
    expect(await stored()).toBe(before);
  });

  it('refuses it in the store itself, whoever calls it, before writing anything', async () => {
    const team = 'bounds-store';
    const event = { ...serverEvent('0099-06-01T00:00:00.000Z'), actor_type: 'admin' as const, outcome: 'success' as const };
    const ok = { ...event, id: randomUUID(), occurred_at: new Date().toISOString() };
    const [target, detail, ip, device] = ['', {}, '', ''];
    const rows = [ok, event].map((e) => ({ ...e, target, detail, ip, device }));
    await expect(db.transaction((tx) => eventsRepository.append(tx, team, rows))).rejects.toMatchObject({
      code: 'invalid_input',
      issues: [{ path: 'events.1.occurred_at', message: 'errors.event_time_out_of_range' }],
    });
    expect((await eventsRepository.head(db, team)).seq).toBe(0);
  });

  it('stores the edges and any spelling of a time inside them, reads each back as hashed, and the chain verifies', async () => {
    const inside = [
      '2000-01-01T00:00:00Z',
      '2000-01-01T05:30:00+05:30',
      '2026-03-01T12:34:56.789654321Z',
      '2026-03-01T12:34:56.7-01:00',
      new Date(Date.now() + DAY - 60_000).toISOString(),
    ];
    const sent = inside.map(serverEvent);
    const res = await postSigned(hub, '/api/v1/integrate/events/', { team_slug: TEAM, events: sent });
    expect(res.status, await res.clone().text()).toBe(200);
    const canonical = inside.map((t) => new Date(t).toISOString());
    // Stored: the database's own text of the value is the canonical text hashed.
    const texts = await db.query<{ t: string }>(
      `select to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as t from event_log
       where team_slug = $1 and id = any($2::uuid[]) order by seq`,
      [TEAM, sent.map((e) => e.id)],
    );
    expect(texts.map((r) => r.t)).toEqual(canonical);
    // Read back through the API: the same text, and each row's hash is its content's.
    const page = await send<{ results: EventRecord[] }>(
      hub,
      '/audit/logs/fetch/',
      { team_slug: TEAM, filters: { activities: ['group.created'] }, page_size: 100 },
      admin,
    );
    const read = page.body.results.filter((r) => sent.some((e) => e.id === r.id)).reverse();
    expect(read.map((r) => r.occurred_at)).toEqual(canonical);
    for (const r of read) expect(eventHash({ ...r, team_slug: TEAM })).toBe(r.hash);
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('reads an event stored before the bounds (year 0099) as it was hashed, so the chain still verifies', async () => {
    const team = 'bounds-legacy';
    const service = createEventsService(db, { selfHosted: true });
    await service.record(team, [
      { actor: 'x@northwind.example', actor_type: 'app', activity: 'app.vault_unlocked', component: 'app' },
    ]);
    // What an earlier Hub stored for `0099-06-01T00:00:00Z`: the value, hashed as that text.
    const [row] = await eventsRepository.range(db, team, 1, 1, 1);
    if (!row) throw new Error('no row');
    const hash = eventHash({ ...row, occurred_at: '0099-06-01T00:00:00.000Z' });
    await db.query(`update event_log set occurred_at = '0099-06-01T00:00:00Z', hash = $2 where team_slug = $1 and seq = 1`, [
      team,
      hash,
    ]);
    await db.query('update event_chain_heads set hash = $2 where team_slug = $1', [team, hash]);
    expect((await eventsRepository.range(db, team, 1, 1, 1))[0]?.occurred_at).toBe('0099-06-01T00:00:00.000Z');
    expect(await service.verify(team)).toMatchObject({ ok: true, checked: 1 });
  });
});
