import type { Db } from '@latchkey/runtime';
import { eventSearchRepository as repo } from './event-search.repository.ts';

/** Events indexed per transaction. */
const BATCH = 10_000;

/**
 * Fills the search index (event_search, event_search_values) behind the appends, off the chain
 * lock. Told of an append, it waits `refreshMs` (as a search engine's refresh interval:
 * one large batch instead of many small ones, which let ingest go ~20 % faster) and indexes that
 * team's new events until it has caught up. Searches read the events not indexed yet on their own columns, so the delay hides
 * nothing. A sweep every `sweepMs` catches what it was not told of (a restart, another instance's
 * appends). One run per team at a time here; across instances the progress row's lock decides.
 */
export function createSearchIndexer(
  db: Db,
  o: { refreshMs?: number; sweepMs?: number; log?: { warn: (obj: object, msg: string) => void } } = {},
) {
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  /** Ends the refresh waits at once when the indexer stops (what is left is indexed after a restart). */
  const waking = new Set<() => void>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const refresh = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(wait);
        waking.delete(done);
        resolve();
      };
      const wait = setTimeout(done, o.refreshMs ?? 1_000);
      waking.add(done);
    });

  async function catchUp(teamSlug: string): Promise<void> {
    do {
      again.delete(teamSlug);
      while (!stopped && (await db.transaction((tx) => repo.indexNext(tx, teamSlug, BATCH))) === BATCH);
    } while (!stopped && again.has(teamSlug));
  }

  /** Indexes the team's new events after the refresh interval (or right after the run under way). */
  function nudge(teamSlug: string): Promise<void> {
    const run = running.get(teamSlug);
    if (run) {
      again.add(teamSlug);
      return run;
    }
    const started = refresh()
      .then(() => catchUp(teamSlug))
      .catch((err: unknown) => o.log?.warn({ err, teamSlug }, 'event search index not updated'))
      .finally(() => running.delete(teamSlug));
    running.set(teamSlug, started);
    return started;
  }

  async function sweep(): Promise<void> {
    const teams = await repo.teamsBehind(db);
    await Promise.all(teams.map(nudge));
  }

  return {
    nudge,
    sweep,
    start() {
      timer = setInterval(
        () => void sweep().catch((err: unknown) => o.log?.warn({ err }, 'event search sweep failed')),
        o.sweepMs ?? 5_000,
      );
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      for (const wake of [...waking]) wake();
      await Promise.all(running.values());
    },
  };
}
