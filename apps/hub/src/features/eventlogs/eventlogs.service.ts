import { EVENT_COUNT_CAP, EVENT_SEARCH_COUNT_CAP, type EventInput } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import type { DeviceCaller } from '../devices/index.ts';
import { isUnfiltered, parseFilters } from './event-filter-sql.ts';
import { eventsRepository as repo } from './eventlogs.repository.ts';
import { createEventExport } from './export.service.ts';
import { createPullApi } from './pull.service.ts';
import { appendEvents, type OwnHubEvent, recordHubEvents } from './record-events.ts';
import { createRetention } from './retention.service.ts';
import { createEventLogSettings } from './settings.service.ts';
import { verificationFailedEvent } from './verification-failed.ts';
import { verifyChain } from './verify.service.ts';

/**
 * The event log: what comes in (the apps', the licence server's feed, the Hub's own), the pages
 * the console reads, and the parts with a file of their own (export, verify, the pull API,
 * settings, retention).
 */
export function createEventsService(db: Db, o: { selfHosted: boolean; onAppended?: (teamSlug: string) => void }) {
  const appended = (teamSlug: string, n: number) => {
    if (n > 0) o.onAppended?.(teamSlug);
    return n;
  };

  return {
    /** The apps' events (device credential): the member's activity, through their app. */
    async ingestFromDevice(
      device: DeviceCaller,
      events: { type: string; occurred_at: string; detail: Record<string, unknown> }[],
    ) {
      const n = await db.transaction((tx) =>
        appendEvents(
          tx,
          device.teamSlug,
          events.map((e) => ({
            actor: device.email,
            actor_type: 'app',
            activity: `app.${e.type}`,
            component: 'app',
            device: device.deviceId,
            occurred_at: e.occurred_at,
            detail: e.detail as Record<string, string | number | boolean>,
          })),
        ),
      );
      appended(device.teamSlug, n);
      return { accepted: events.length };
    },

    /** The licence server's signed feed: idempotent by event id. */
    async ingestFromServer(teamSlug: string, events: EventInput[]) {
      const n = await db.transaction((tx) => appendEvents(tx, teamSlug, events));
      appended(teamSlug, n);
      return { accepted: n, duplicates: events.length - n };
    },

    async record(teamSlug: string, events: OwnHubEvent[]) {
      return appended(teamSlug, await db.transaction((tx) => recordHubEvents(tx, teamSlug, events)));
    },

    async page(teamSlug: string, input: { page: number; page_size: number; filters: unknown; before_seq?: number | undefined }) {
      const f = parseFilters(input.filters);
      const head = await repo.head(db, teamSlug);
      // A search counts to a lower cap: its count reads the matches themselves (see the contract).
      const total = isUnfiltered(f)
        ? Math.max(0, head.seq - head.floor_seq + 1)
        : await repo.count(db, teamSlug, f, f.search_value ? EVENT_SEARCH_COUNT_CAP : EVENT_COUNT_CAP);
      const results = await repo.page(db, teamSlug, f, {
        page: input.page,
        pageSize: input.page_size,
        beforeSeq: input.before_seq,
        headSeq: head.seq,
      });
      const last = results.at(-1);
      const more = results.length === input.page_size && last !== undefined && last.seq > head.floor_seq;
      return {
        results: results.map(({ team_slug: _t, ...r }) => r),
        total,
        pages: total === null ? null : Math.max(1, Math.ceil(total / input.page_size)),
        next_before_seq: more && last ? last.seq : null,
      };
    },

    async filterOptions(teamSlug: string, limit: number) {
      const [activities, actors, components, ip_addresses] = await Promise.all([
        repo.distinct(db, teamSlug, 'activity', limit),
        repo.distinct(db, teamSlug, 'actor', limit),
        repo.distinct(db, teamSlug, 'component', limit),
        repo.distinct(db, teamSlug, 'ip', limit),
      ]);
      return { activities, actors, components, ip_addresses };
    },

    ...createEventExport(db),
    /** Verifies the chain; problems found are recorded (after the reading, so the result is the chain as it was asked about). */
    async verify(teamSlug: string, range: Parameters<typeof verifyChain>[2] = {}, actor = 'system') {
      const result = await verifyChain(db, teamSlug, range);
      if (!result.ok) {
        const event = verificationFailedEvent(teamSlug, actor, result);
        appended(teamSlug, await db.transaction((tx) => recordHubEvents(tx, teamSlug, [event])));
      }
      return result;
    },
    ...createPullApi(db),
    ...createEventLogSettings(db, o),
    ...createRetention(db, o),
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
