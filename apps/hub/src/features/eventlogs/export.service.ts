import { EXPORT_COLUMNS, type ExportFormat } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { isUnfiltered, parseFilters } from './event-filter-sql.ts';
import { eventsRepository as repo } from './eventlogs.repository.ts';

/** Seqs per export batch: one text of a few MB from the database. */
const EXPORT_BATCH = 20_000;
/** Export batches read at once. */
const EXPORT_IN_FLIGHT = 3;

/** The log's export: its rows counted, then streamed in the chosen format. */
export function createEventExport(db: Db) {
  return {
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
  };
}
