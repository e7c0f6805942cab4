import type { Db } from '@latchkey/runtime';
import { eventSearchRepository as searchRepo } from './event-search.repository.ts';
import { partitionName, eventsRepository as repo } from './eventlogs.repository.ts';
import { recordHubEvents } from './record-events.ts';

/** Partitions made ahead, and retention: a team's months older than its limit removed, the chain's new floor recorded. */
export function createRetention(db: Db, o: { onAppended?: ((teamSlug: string) => void) | undefined }) {
  return {
    /** This month's and next month's partitions, made ahead (at start and hourly). */
    async prepareMonths(now = new Date()) {
      await repo.ensureMonth(db, now);
      await repo.ensureMonth(db, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
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
