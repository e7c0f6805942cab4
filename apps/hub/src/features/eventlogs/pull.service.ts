import { type Db, hashToken, randomToken, unauthorized } from '@latchkey/runtime';
import { eventsRepository as repo } from './eventlogs.repository.ts';
import { toOcsf } from './ocsf.ts';
import { recordHubEvents } from './record-events.ts';

/** The pull API: a SIEM reads the log with a read-only token of the team's, from a cursor of its own. */
export function createPullApi(db: Db) {
  return {
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
  };
}
