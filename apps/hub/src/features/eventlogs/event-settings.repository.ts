import type { Queryable } from '@latchkey/runtime';

/** A team's event-log settings (retention, SIEM switch) and its pull API token. */
export const eventSettingsRepository = {
  async setPullToken(q: Queryable, teamSlug: string, tokenHash: string): Promise<Date> {
    const [row] = await q.query<{ created_at: Date }>(
      `insert into event_pull_tokens (team_slug, token_hash) values ($1, $2)
       on conflict (team_slug) do update set token_hash = excluded.token_hash, created_at = now() returning created_at`,
      [teamSlug, tokenHash],
    );
    return row?.created_at ?? new Date();
  },

  async removePullToken(q: Queryable, teamSlug: string): Promise<void> {
    await q.query('delete from event_pull_tokens where team_slug = $1', [teamSlug]);
  },

  async pullTokenCreatedAt(q: Queryable, teamSlug: string): Promise<Date | null> {
    const [row] = await q.query<{ created_at: Date }>('select created_at from event_pull_tokens where team_slug = $1', [
      teamSlug,
    ]);
    return row?.created_at ?? null;
  },

  async teamOfPullToken(q: Queryable, tokenHash: string): Promise<string | null> {
    const [row] = await q.query<{ team_slug: string }>('select team_slug from event_pull_tokens where token_hash = $1', [
      tokenHash,
    ]);
    return row?.team_slug ?? null;
  },

  // ── settings ──
  async settings(q: Queryable, teamSlug: string): Promise<{ delete_after_days: number | null; siem_enabled: boolean }> {
    const [row] = await q.query<{ delete_after_days: number | null; siem_enabled: boolean }>(
      'select delete_after_days, siem_enabled from event_log_settings where team_slug = $1',
      [teamSlug],
    );
    return row ?? { delete_after_days: null, siem_enabled: true };
  },

  async setRetention(q: Queryable, teamSlug: string, days: number): Promise<void> {
    await q.query(
      `insert into event_log_settings (team_slug, delete_after_days) values ($1, $2)
       on conflict (team_slug) do update set delete_after_days = excluded.delete_after_days, updated_at = now()`,
      [teamSlug, days],
    );
  },

  async setSiemEnabled(q: Queryable, teamSlug: string, enabled: boolean): Promise<void> {
    await q.query(
      `insert into event_log_settings (team_slug, siem_enabled) values ($1, $2)
       on conflict (team_slug) do update set siem_enabled = excluded.siem_enabled, updated_at = now()`,
      [teamSlug, enabled],
    );
  },
};
