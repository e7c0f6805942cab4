import type { Db } from '@latchkey/runtime';
import { type SessionContextRow, teamRepository } from './team.repository.ts';

/** A write to any table a session context is read from (team.repository.ts `findSessionContext`). */
const CHANGES_A_CONTEXT =
  /\b(?:insert\s+into|update|delete\s+from)\s+(?:sessions|team_admins|admin_elevations|teams|hubs|users)\b/i;
const MAX_ENTRIES = 50_000;

type Entry = { row: SessionContextRow | undefined; until: number; renewing?: boolean };

/**
 * The session context every authenticated call needs (session, admin scopes, team, Hub services),
 * remembered for `ttlMs` so a busy admin's calls do not read it again and again. Any committed write
 * to those tables forgets them all at once, on every instance: here at commit, on the others by the
 * database's change notice (PostgreSQL NOTIFY, sent in the writing transaction), so no instance
 * serves a session signed out, an admin removed or a service switched off on another one. While
 * the notices may be missed (the listening connection is down) nothing is served from memory.
 *
 * A busy session's context is read again in the background once half its time has passed, and
 * calls that find none wait for one shared read: otherwise every `ttlMs` all of a session's calls
 * in flight read it at once (six queries each), and wait for it.
 */
export function sessionContexts(db: Db, ttlMs = 2000) {
  const entries = new Map<string, Entry>();
  // Reads on their way, so that parallel calls share one; only within the generation they began in.
  const reading = new Map<string, Promise<SessionContextRow | undefined>>();
  // Bumped by every relevant write: a read that raced one is not kept, nor shared by later calls.
  let generation = 0;
  const changes = db.watchChanges('latchkey_session_contexts', CHANGES_A_CONTEXT, () => {
    generation++;
    entries.clear();
    reading.clear();
  });

  function read(sessionId: string): Promise<SessionContextRow | undefined> {
    const shared = reading.get(sessionId);
    if (shared) return shared;
    const readAt = generation;
    const done = teamRepository.findSessionContext(db, sessionId).then(
      (row) => {
        if (generation === readAt) {
          reading.delete(sessionId);
          if (entries.size >= MAX_ENTRIES) entries.clear();
          entries.set(sessionId, { row, until: Date.now() + ttlMs });
        }
        return row;
      },
      (error: unknown) => {
        if (generation === readAt) reading.delete(sessionId);
        throw error;
      },
    );
    reading.set(sessionId, done);
    return done;
  }

  return async function find(sessionId: string): Promise<SessionContextRow | undefined> {
    if (!changes.live) return teamRepository.findSessionContext(db, sessionId);
    const hit = entries.get(sessionId);
    const now = Date.now();
    if (hit && hit.until > now) {
      // Still within its time: served as it is, and read afresh behind it once half of that is gone.
      if (!hit.renewing && hit.until - now < ttlMs / 2) {
        hit.renewing = true;
        read(sessionId).catch(() => {
          hit.renewing = false;
        });
      }
      return hit.row;
    }
    return read(sessionId);
  };
}
