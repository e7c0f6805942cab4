import type { Queryable } from '@latchkey/runtime';

export const eventsRepository = {
  /** Appends a device's batch in one statement. */
  async append(
    q: Queryable,
    device: { teamSlug: string; email: string; deviceId: string },
    events: { type: string; occurred_at: string; detail: Record<string, unknown> }[],
  ): Promise<void> {
    const params: unknown[] = [device.teamSlug, device.email, device.deviceId];
    const values = events.map((e) => {
      params.push(e.type, e.occurred_at, JSON.stringify(e.detail));
      const n = params.length;
      return `($1, $2, $3, $${n - 2}, $${n - 1}, $${n})`;
    });
    await q.query(
      `insert into client_events (team_slug, email, device_id, type, occurred_at, detail) values ${values.join(', ')}`,
      params,
    );
  },
};
