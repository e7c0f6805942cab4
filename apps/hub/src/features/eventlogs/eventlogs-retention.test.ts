import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hubForFile, send } from '../../testing/clients.ts';
import { TEAM } from '../../testing/hub-fixture.ts';
import { eventSearchRepository } from './event-search.repository.ts';
import { eventsRepository } from './eventlogs.repository.ts';
import { createEventsService } from './eventlogs.service.ts';

const at = hubForFile();

describe('retention', () => {
  it('drops whole old months, records a checkpoint, and what remains verifies', async () => {
    const team = 'retention-team';
    const old = new Date(Date.now() - 120 * 86_400_000);
    const older = new Date(Date.now() - 90 * 86_400_000);
    const mk = (n: number) =>
      Array.from({ length: n }, () => ({
        id: randomUUID(),
        actor: 'x',
        actor_type: 'admin' as const,
        activity: 'a.b',
        component: 'c',
        target: '',
        ip: '',
        device: '',
        occurred_at: new Date().toISOString(),
        outcome: 'success' as const,
        detail: {},
      }));
    await at.db.transaction((tx) => eventsRepository.append(tx, team, mk(3), old));
    await at.db.transaction((tx) => eventsRepository.append(tx, team, mk(2), older));
    await at.db.transaction((tx) => eventsRepository.append(tx, team, mk(4)));
    await at.db.transaction((tx) => eventSearchRepository.indexNext(tx, team, 100));
    const service = createEventsService(at.db, { selfHosted: true });
    await service.setRetention(team, 30);
    await service.applyRetention();
    const left = await at.db.query<{ seq: number; activity: string }>(
      'select seq::int as seq, activity from event_log where team_slug = $1 order by seq',
      [team],
    );
    expect(left.map((r) => r.seq)).toEqual([6, 7, 8, 9, 10, 11]);
    expect(left.at(-1)?.activity).toBe('event_logs.retention_checkpoint');
    expect(await service.verify(team)).toMatchObject({ ok: true, checked: 6 });
    // The search index keeps nothing of what went.
    const indexed = await at.db.query<{ seq: number }>(
      'select seq::int as seq from event_search where team_slug = $1 order by seq',
      [team],
    );
    expect(indexed.map((r) => r.seq)).toEqual([6, 7, 8, 9]);
    const valueMonths = await at.db.query<{ month: string }>(
      'select distinct month::text as month from event_search_values where team_slug = $1',
      [team],
    );
    expect(valueMonths.map((r) => r.month)).toEqual([`${new Date().toISOString().slice(0, 8)}01`]);
    // A SIEM destination or pull client still behind the dropped months reads on from what remains.
    expect((await eventsRepository.after(at.db, team, 0, 3)).map((r) => r.seq)).toEqual([6, 7, 8]);
    expect((await eventsRepository.after(at.db, team, 8, 10)).map((r) => r.seq)).toEqual([9, 10, 11]);
    // The whole month partition went, not only its rows.
    const names = (await eventsRepository.partitions(at.db)).map((p) => p.name);
    expect(names).not.toContain(`event_log_y${old.getUTCFullYear()}m${String(old.getUTCMonth() + 1).padStart(2, '0')}`);
  });

  it('refuses a retention below one day, and on a Hub the customer does not run', async () => {
    expect(
      (await send(at.hub, '/audit/logs/configuration/update/', { team_slug: TEAM, delete_after_days: 0 }, at.admin)).status,
    ).toBe(400);
    const managed = createEventsService(at.db, { selfHosted: false });
    await expect(managed.setRetention(TEAM, 10)).rejects.toMatchObject({ code: 'not_allowed' });
    const ok = await send<{ delete_after_days: number }>(
      at.hub,
      '/audit/logs/configuration/update/',
      { team_slug: TEAM, delete_after_days: 400 },
      at.admin,
    );
    expect(ok.body.delete_after_days).toBe(400);
    const fetched = await send<Record<string, unknown>>(
      at.hub,
      '/audit/logs/configuration/fetch/',
      { team_slug: TEAM },
      at.admin,
    );
    expect(fetched.body).toMatchObject({ delete_after_days: 400, self_hosted: true, siem_enabled: true });
    const off = await send<Record<string, unknown>>(
      at.hub,
      '/audit/logs/configuration/',
      { team_slug: TEAM, action: 'disable' },
      at.admin,
    );
    expect(off.body.siem_enabled).toBe(false);
    await send(at.hub, '/audit/logs/configuration/', { team_slug: TEAM, action: 'enable' }, at.admin);
  });
});
