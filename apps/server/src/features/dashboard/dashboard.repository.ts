import type { Queryable } from '@latchkey/runtime';

/** The console's interaction counts for product analytics (the analytics_events table). */
export const dashboardRepository = {
  async recordAnalytics(
    q: Queryable,
    teamId: string,
    userId: string,
    e: { interaction_type: string; object: string; section: string },
  ): Promise<void> {
    await q.query(
      'insert into analytics_events (team_id, user_id, interaction_type, object, section) values ($1, $2, $3, $4, $5)',
      [teamId, userId, e.interaction_type, e.object, e.section],
    );
  },
};
