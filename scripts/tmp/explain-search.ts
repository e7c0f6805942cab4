import { EventFilters } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { eventsRepository } from '../../apps/hub/src/features/events/events.repository.ts';
import { openBenchDb } from '../bench-events-data.ts';

const db = await openBenchDb(process.env.TEST_DATABASE_URL as string, 2);
const term = process.argv[2] ?? 'member.4242';
const explaining: Queryable = {
  async query(sql: string, params?: unknown[]) {
    const t = performance.now();
    const rows = await db.query(sql, params);
    const ms = performance.now() - t;
    if (/event_search/.test(sql) && /select/.test(sql)) {
      const plan = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) ${sql}`, params);
      console.log(`--- ${ms.toFixed(1)} ms, ${rows.length} rows: ${sql.replace(/\s+/g, ' ').slice(0, 160)}`);
      console.log(
        plan
          .map((r) => r['QUERY PLAN'])
          .filter((l) => !/never executed|Index Cond|Heap Fetches/.test(l) || true)
          .join('\n'),
      );
    } else console.log(`--- ${ms.toFixed(1)} ms: ${sql.replace(/\s+/g, ' ').slice(0, 120)}`);
    return rows;
  },
} as Queryable;
const head = await eventsRepository.head(db, 'northwind');
const f = EventFilters.parse({ search_value: term }) as Required<EventFilters>;
const t = performance.now();
const rows = await eventsRepository.page(db, 'northwind', f, { page: 1, pageSize: 50, headSeq: head.seq });
console.log(`plain run: ${rows.length} rows`);
const t2 = performance.now();
await eventsRepository.page(db, 'northwind', f, { page: 1, pageSize: 50, headSeq: head.seq });
console.log(`timed: ${(performance.now() - t2).toFixed(1)} ms (first ${(t2 - t).toFixed(1)})`);
await eventsRepository.page(explaining, 'northwind', f, { page: 1, pageSize: 50, headSeq: head.seq });
await db.close();
