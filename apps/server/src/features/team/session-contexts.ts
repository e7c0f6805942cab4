import type { Db } from '@latchkey/runtime';
import { type SessionContextRow, teamRepository } from './team.repository.ts';

/** A write to any table a session context is read from (team.repository.ts `findSessionContext`). */
const CHANGES_A_CONTEXT =
  /\b(?:insert\s+into|update|delete\s+from)\s+(?:sessions|team_admins|admin_elevations|teams|hubs|users)\b/i;
const MAX_ENTRIES = 50_000;

/**
 * The session context every authenticated call needs (session, admin scopes, team, Hub services),
 * remembered for `ttlMs` so a busy admin's calls do not read it again and again. Any committed write
 * to those tables forgets them all at once, on every instance: here at commit, on the others by the
 * database's change notice (PostgreSQL NOTIFY, sent in the writing transaction), so no instance
 * serves a session signed out, an admin removed or a service switched off on another one. While
 * the notices may be missed (the listening connection is down) nothing is served from memory.
 */
export function sessionContexts(db: Db, ttlMs = 2000) {
  const entries = new Map<string, { row: SessionContextRow | undefined; until: number }>();
  // Bumped by every relevant write: a read that raced one is not kept.
  let generation = 0;
  const changes = db.watchChanges('latchkey_session_contexts', CHANGES_A_CONTEXT, () => {
    generation++;
    entries.clear();
  });

  return async function find(sessionId: string): Promise<SessionContextRow | undefined> {
    if (!changes.live) return teamRepository.findSessionContext(db, sessionId);
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
