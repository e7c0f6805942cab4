import { createPostgresDb } from '@latchkey/runtime/testing';
import { MIGRATIONS_DIR } from '../../apps/hub/src/db/migrations-dir.ts';
import { eventsRepository as repo } from '../../apps/hub/src/features/events/events.repository.ts';
import { makeEvents } from '../bench-events-ingest.ts';
const normalise = (e: any) => ({ ...e, outcome: 'success', target: e.target ?? '', ip: e.ip ?? '', device: e.device ?? '' });
const db = await createPostgresDb(MIGRATIONS_DIR, process.env.TEST_DATABASE_URL, 4);
const SIZE = Number(process.env.SIZE ?? 500);
const drop = (process.env.DROP ?? '').split(',').filter(Boolean);
for (const ix of drop) await db.query(`drop index ${ix}`);
// warm: 40 batches, then 40 timed
const times = new Map<string, number>();
const timed = (tx: any) => ({ ...tx, query: async (sql: string, p?: unknown[]) => { const t = performance.now(); try { return await tx.query(sql, p); } finally { const k = sql.trim().slice(0, 40); times.set(k, (times.get(k) ?? 0) + performance.now() - t); } } });
let make = 0, total = 0;
const run = async (n: number) => { times.clear(); make = 0; const t = performance.now(); for (let b = 0; b < n; b++) { const t0 = performance.now(); const ev = makeEvents(SIZE, b * SIZE).map(normalise); make += performance.now() - t0; await db.transaction((tx) => repo.append(timed(tx), 'northwind', ev)); } total = performance.now() - t; return (performance.now() - t - make) / n; };
await run(40);
const ms = await run(40);
console.log(`dropped [${drop}] per ${SIZE}-batch ${ms.toFixed(1)} ms → ${Math.round(SIZE / ms * 1000)} events/s sequential`);
for (const [k, v] of times) console.log(`  ${(v / 40).toFixed(1)} ms  ${k}`); console.log(`  make ${(make/40).toFixed(1)} ms`);
await db.close();
