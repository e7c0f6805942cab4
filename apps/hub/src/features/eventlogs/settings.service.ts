import { AppError, type Db } from '@latchkey/runtime';
import { eventsRepository as repo } from './eventlogs.repository.ts';
import { recordHubEvents } from './record-events.ts';

/** A team's event-log settings: what the console shows, retention (self-hosted Hubs only), the SIEM switch. */
export function createEventLogSettings(db: Db, o: { selfHosted: boolean }) {
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
    config,

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
  };
}
