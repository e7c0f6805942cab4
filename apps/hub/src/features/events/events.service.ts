import { randomUUID } from 'node:crypto';
import {
  CHAIN_PROBLEMS_LISTED,
  EVENT_COUNT_CAP,
  EventFilters,
  type EventInput,
  type EventRecord,
  EXPORT_COLUMNS,
  type ExportFormat,
} from '@latchkey/contracts';
import {
  AppError,
  currentRequestOrigin,
  type Db,
  deviceFromUserAgent,
  hashToken,
  type Queryable,
  randomToken,
  unauthorized,
} from '@latchkey/runtime';
import type { DeviceCaller } from '../devices/index.ts';
import { type ChainProblem, checkChain, GENESIS_HASH } from './chain.ts';
import { eventSearchRepository as searchRepo } from './event-search.repository.ts';
import { isUnfiltered, type NewEvent, partitionName, eventsRepository as repo } from './events.repository.ts';
import { toOcsf } from './ocsf.ts';

type Filters = Required<EventFilters>;
/** Seqs per export batch: one text of a few MB from the database. */
const EXPORT_BATCH = 20_000;
/** Export batches read at once. */
const EXPORT_IN_FLIGHT = 3;
const VERIFY_BATCH = 5_000;

/** What another feature (or the server's feed) records: the store fills in id, time and defaults. */
export interface HubEvent {
  actor: string;
  actor_type: EventRecord['actor_type'];
  activity: string;
  component: string;
  target?: string;
  ip?: string;
  device?: string;
  outcome?: EventRecord['outcome'];
  detail?: Record<string, string | number | boolean | null>;
  id?: string;
  occurred_at?: string;
}

export function normalise(e: HubEvent | EventInput): NewEvent {
  return {
    id: e.id ?? randomUUID(),
    actor: e.actor ?? '',
    actor_type: e.actor_type,
    activity: e.activity,
    component: e.component,
    target: e.target ?? '',
    ip: e.ip ?? '',
    device: e.device ?? '',
    occurred_at: e.occurred_at ?? new Date().toISOString(),
    outcome: e.outcome ?? 'success',
    detail: e.detail ?? {},
  };
}

/**
 * Records Hub events in the caller's transaction (`q`): the event exists if and only if the change
 * it describes committed. Other features call this through `features/events/index.ts`.
 */
export async function recordHubEvents(q: Queryable, teamSlug: string, events: readonly HubEvent[]): Promise<number> {
  // Made while handling a request (a console or app call): its IP and device unless the caller gave them.
  const origin = currentRequestOrigin();
  const device = deviceFromUserAgent(origin.userAgent);
  return repo.append(
    q,
    teamSlug,
    events.map((e) => normalise({ ...e, ip: e.ip || origin.ip || '', device: e.device || device })),
  );
}

export function createEventsService(db: Db, o: { selfHosted: boolean; onAppended?: (teamSlug: string) => void }) {
  const appended = (teamSlug: string, n: number) => {
    if (n > 0) o.onAppended?.(teamSlug);
    return n;
  };
  const parseFilters = (f: unknown): Filters => EventFilters.parse(f ?? {}) as Filters;

  async function config(teamSlug: string) {
    const [s, head, pull] = await Promise.all([
      repo.settings(db, teamSlug),
      repo.head(db, teamSlug),
      repo.pullTokenCreatedAt(db, teamSlug),
    ]);
    return {
      delete_after_days: s.delete_after_days,
      self_hosted: o.selfHosted,
      siem_enabled: s.siem_enabled,
      total_events: Math.max(0, head.seq - head.floor_seq + 1),
      pull_token_created_at: pull ? new Date(pull).toISOString() : null,
    };
  }

  return {
    /** The apps' events (device credential): the member's activity, through their app. */
    async ingestFromDevice(
      device: DeviceCaller,
      events: { type: string; occurred_at: string; detail: Record<string, unknown> }[],
    ) {
      const n = await db.transaction((tx) =>
        repo.append(
          tx,
          device.teamSlug,
          events.map((e) =>
            normalise({
              actor: device.email,
              actor_type: 'app',
              activity: `app.${e.type}`,
              component: 'app',
              device: device.deviceId,
              occurred_at: e.occurred_at,
              detail: e.detail as Record<string, string | number | boolean>,
            }),
          ),
        ),
      );
      appended(device.teamSlug, n);
      return { accepted: events.length };
    },

    /** The licence server's signed feed: idempotent by event id. */
    async ingestFromServer(teamSlug: string, events: EventInput[]) {
      const n = await db.transaction((tx) => repo.append(tx, teamSlug, events.map(normalise)));
      appended(teamSlug, n);
      return { accepted: n, duplicates: events.length - n };
    },

    async record(teamSlug: string, events: HubEvent[]) {
      return appended(teamSlug, await db.transaction((tx) => recordHubEvents(tx, teamSlug, events)));
    },

    async page(teamSlug: string, input: { page: number; page_size: number; filters: unknown; before_seq?: number | undefined }) {
      const f = parseFilters(input.filters);
      const head = await repo.head(db, teamSlug);
      // A search is not counted: counting a common term's matches costs seconds (see the contract).
      const total = isUnfiltered(f)
        ? Math.max(0, head.seq - head.floor_seq + 1)
        : f.search_value
          ? null
          : await repo.count(db, teamSlug, f, EVENT_COUNT_CAP);
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

    /** Streams the filter's rows oldest first, batch by batch (keyset), to `write`; returns how many. */
    async export(teamSlug: string, format: ExportFormat, filters: unknown, write: (chunk: string) => Promise<void>) {
      const f = parseFilters(filters);
      if (format === 'csv') await write(`${EXPORT_COLUMNS.join(',')}\n`);
      // The chain is gap-free from the retention floor to the head: batches are seq ranges, so
      // several are read at once (on PostgreSQL, each on its own connection and core) and written
      // in order. Events appended meanwhile are after the head read here: not in this export.
      const { floor_seq: floor, seq: head } = await repo.head(db, teamSlug);
      const reading: ReturnType<typeof repo.exportBatch>[] = [];
      let from = floor;
      const readAhead = () => {
        for (; reading.length < EXPORT_IN_FLIGHT && from <= head; from += EXPORT_BATCH) {
          const batch = repo.exportBatch(db, teamSlug, f, format, from, Math.min(from + EXPORT_BATCH - 1, head));
          batch.catch(() => undefined); // awaited below in order; an early failure must not go unhandled
          reading.push(batch);
        }
      };
      readAhead();
      let n = 0;
      for (let batch = reading.shift(); batch; batch = reading.shift()) {
        const { text, n: rows } = await batch;
        readAhead();
        if (!rows) continue;
        await write(`${text}\n`);
        n += rows;
      }
      return n;
    },

    async exportCount(teamSlug: string, filters: unknown) {
      const f = parseFilters(filters);
      if (isUnfiltered(f)) {
        const head = await repo.head(db, teamSlug);
        return Math.max(0, head.seq - head.floor_seq + 1);
      }
      return repo.count(db, teamSlug, f, Number.MAX_SAFE_INTEGER);
    },

    /**
     * Re-computes the chain over [from, to] (default: all that retention left) and reports every
     * break in it (the first CHAIN_PROBLEMS_LISTED of them listed, all counted).
     */
    async verify(teamSlug: string, range: { from_seq?: number | undefined; to_seq?: number | undefined } = {}) {
      const head = await repo.head(db, teamSlug);
      const from = Math.max(range.from_seq ?? head.floor_seq, head.floor_seq);
      const to = Math.min(range.to_seq ?? head.seq, head.seq);
      if (head.seq === 0 || from > to)
        return {
          ok: true,
          checked: 0,
          first_seq: null,
          last_seq: null,
          head_hash: head.seq ? head.hash : null,
          problem: null,
          problems: [],
          problem_count: 0,
        };
      // The hash the first row must follow: the previous row's, or at the floor the anchor the first row names
      // (GENESIS at seq 1; after retention, the checkpoint event records it).
      let prevHash: string | null;
      if (from === 1) prevHash = GENESIS_HASH;
      else if (from === head.floor_seq) prevHash = (await repo.lowest(db, teamSlug))?.prev_hash ?? GENESIS_HASH;
      else prevHash = await repo.hashAt(db, teamSlug, from - 1);
      const problems: ChainProblem[] = [];
      let count = 0;
      const note = (found: readonly ChainProblem[]) => {
        count += found.length;
        problems.push(...found.slice(0, Math.max(0, CHAIN_PROBLEMS_LISTED - problems.length)));
      };
      let cursor: { seq: number; prevHash: string | null } = { seq: from, prevHash };
      let checked = 0;
      while (cursor.seq <= to) {
        const rows = await repo.range(db, teamSlug, cursor.seq, to, VERIFY_BATCH);
        if (!rows.length) {
          // Nothing left up to `to`: the rest was removed.
          note([{ seq: cursor.seq, kind: 'gap' }]);
          break;
        }
        const { problems: found, next } = checkChain(rows, cursor);
        note(found);
        checked += rows.length;
        cursor = next;
      }
      // The chain's end must be the head the Hub keeps: a replaced last row shows here.
      if (to === head.seq && cursor.seq === head.seq + 1 && cursor.prevHash !== head.hash)
        note([{ seq: head.seq, kind: 'link' }]);
      return {
        ok: count === 0,
        checked,
        first_seq: from,
        last_seq: to,
        head_hash: head.hash,
        problem: problems[0] ?? null,
        problems,
        problem_count: count,
      };
    },

    config,

    /** This month's and next month's partitions, made ahead (at start and hourly). */
    async prepareMonths(now = new Date()) {
      await repo.ensureMonth(db, now);
      await repo.ensureMonth(db, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
    },

    /** The pull API's token: a new one replaces the old (shown once, kept hashed); revoke removes it. */
    async pullToken(teamSlug: string, actor: string, action: 'create' | 'revoke') {
      return db.transaction(async (tx) => {
        if (action === 'revoke') {
          await repo.removePullToken(tx, teamSlug);
          await recordHubEvents(tx, teamSlug, [
            { actor, actor_type: 'admin', activity: 'event_logs.pull_token_revoked', component: 'event_logs' },
          ]);
          return { token: null, created_at: null };
        }
        const token = `lkpull_${randomToken(32)}`;
        const created = await repo.setPullToken(tx, teamSlug, hashToken(token));
        await recordHubEvents(tx, teamSlug, [
          { actor, actor_type: 'admin', activity: 'event_logs.pull_token_created', component: 'event_logs' },
        ]);
        return { token, created_at: new Date(created).toISOString() };
      });
    },

    /** The team a pull token belongs to, or 401. */
    async pullCaller(authorization: string | undefined): Promise<string> {
      const token = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
      const team = token.startsWith('lkpull_') ? await repo.teamOfPullToken(db, hashToken(token)) : null;
      if (!team) throw unauthorized('A valid events pull token is required.');
      return team;
    },

    /** Oldest first after the cursor (the chain's seq): stable across restarts and instances. */
    async pull(teamSlug: string, input: { cursor: string; limit: number; format: 'native' | 'ocsf' }) {
      const rows = await repo.after(db, teamSlug, Number(input.cursor), input.limit + 1);
      const page = rows.slice(0, input.limit);
      const last = page.at(-1);
      return {
        events: page.map((r) => (input.format === 'ocsf' ? toOcsf(r) : (r as unknown as Record<string, unknown>))),
        next_cursor: last ? String(last.seq) : input.cursor,
        has_more: rows.length > input.limit,
      };
    },

    async setRetention(teamSlug: string, days: number) {
      if (!o.selfHosted)
        throw new AppError('not_allowed', 'Retention is set by the operator of this Hub.').shows(
          'errors.retention_not_self_hosted',
        );
      await db.transaction(async (tx) => {
        await repo.setRetention(tx, teamSlug, days);
        await recordHubEvents(tx, teamSlug, [
          {
            actor: 'system',
            actor_type: 'system',
            activity: 'event_logs.retention_changed',
            component: 'event_logs',
            detail: { delete_after_days: days },
          },
        ]);
      });
      return config(teamSlug);
    },

    async setSiemEnabled(teamSlug: string, actor: string, enabled: boolean) {
      await db.transaction(async (tx) => {
        await repo.setSiemEnabled(tx, teamSlug, enabled);
        await recordHubEvents(tx, teamSlug, [
          { actor, actor_type: 'admin', activity: enabled ? 'siem.enabled' : 'siem.disabled', component: 'event_logs' },
        ]);
      });
      return config(teamSlug);
    },

    /**
     * Retention: whole months older than each team's `delete_after_days` go. A month partition only
     * that team (or teams past their own limit) holds is dropped; otherwise the team's rows in it are
     * deleted. A checkpoint event then records the new floor and the hash it follows, so the rest verifies.
     */
    async applyRetention(now = new Date()) {
      const teams = await repo.teamsWithRetention(db);
      if (!teams.length) return { dropped: [] as string[] };
      const cutoffOf = new Map(teams.map((t) => [t.team_slug, now.getTime() - t.delete_after_days * 86_400_000]));
      const dropped: string[] = [];
      const touched = new Set<string>();
      for (const p of await repo.partitions(db)) {
        if (p.name === partitionName(now)) continue;
        const inside = await repo.teamsIn(db, p.name);
        const expired = inside.filter((t) => (cutoffOf.get(t) ?? Number.NEGATIVE_INFINITY) >= p.upper.getTime());
        if (!expired.length) continue;
        await db.transaction(async (tx) => {
          if (expired.length === inside.length) {
            await repo.dropPartition(tx, p.name);
            dropped.push(p.name);
          } else for (const t of expired) await repo.deleteTeamRowsIn(tx, p.name, t);
        });
        for (const t of expired) touched.add(t);
      }
      for (const team of touched) {
        await db.transaction(async (tx) => {
          const lowest = await repo.lowest(tx, team);
          const head = await repo.head(tx, team);
          const floor = lowest?.seq ?? head.seq + 1;
          await repo.setFloor(tx, team, floor);
          await searchRepo.removeBelow(tx, team, floor);
          await recordHubEvents(tx, team, [
            {
              actor: 'system',
              actor_type: 'system',
              activity: 'event_logs.retention_checkpoint',
              component: 'event_logs',
              detail: { floor_seq: floor, floor_prev_hash: lowest?.prev_hash ?? head.hash, removed_before: now.toISOString() },
            },
          ]);
        });
        o.onAppended?.(team);
      }
      return { dropped };
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
