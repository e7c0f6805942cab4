import type { Db } from '@latchkey/runtime';
import { type SessionContextRow, teamRepository } from '../features/team/team.repository.ts';

/** A write to any table a session context is read from (team.repository.ts `findSessionContext`). */
const CHANGES_A_CONTEXT = /\b(?:insert\s+into|update|delete\s+from)\s+(?:sessions|team_admins|teams|hubs|users)\b/i;
const MAX_ENTRIES = 50_000;

/**
 * The session context every authenticated call needs (session, admin scopes, team, Hub services),
 * remembered for `ttlMs` so a busy admin's calls cost one query instead of two. Any committed write
 * to those tables through this database forgets them all at once, so this instance never serves a
 * revoked session, a removed admin or a switched-off service; another instance of the server (its
 * own cache) sees such a change within `ttlMs`.
 */
export function sessionContexts(db: Db, ttlMs = 2000) {
  const entries = new Map<string, { row: SessionContextRow | undefined; until: number }>();
  // Bumped by every relevant write: a read that raced one is not kept.
  let generation = 0;
  db.onCommitted((sql) => {
    if (!CHANGES_A_CONTEXT.test(sql)) return;
    generation++;
    entries.clear();
  });

  return async function find(sessionId: string): Promise<SessionContextRow | undefined> {
    const hit = entries.get(sessionId);
    if (hit && hit.until > Date.now()) return hit.row;
    const readAt = generation;
    const row = await teamRepository.findSessionContext(db, sessionId);
    if (generation === readAt) {
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(sessionId, { row, until: Date.now() + ttlMs });
    }
    return row;
  };
}
