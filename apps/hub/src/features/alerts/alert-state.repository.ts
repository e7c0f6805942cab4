import type { Queryable } from '@latchkey/runtime';

export interface WindowMatch {
  group_key: string;
  seq: number;
  event_id: string;
  /** Epoch ms. */
  at: number;
}

export interface FiringRow {
  id: string;
  rule_id: string;
  team_slug: string;
  group_key: string;
  event_ids: string[];
  event_seqs: string[];
  test: boolean;
  fired_at: Date;
}

export interface DeliveryRow {
  firing_id: string;
  destination_id: string;
  kind: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_error: string | null;
}

/** What the evaluation keeps between batches (threshold windows, cooldowns) and what it makes (firings, deliveries). */
export const alertStateRepository = {
  /** A threshold rule's matches still inside its window, for the groups a batch touches (oldest first). */
  async windows(q: Queryable, ruleId: string, groups: string[], since: number): Promise<WindowMatch[]> {
    const rows = await q.query<{ group_key: string; seq: string; event_id: string; at: string }>(
      `select group_key, seq::text, event_id::text, floor(extract(epoch from recorded_at) * 1000)::bigint::text as at
       from alert_matches where rule_id = $1 and group_key = any($2::text[]) and recorded_at > to_timestamp($3::float8 / 1000)
       order by seq`,
      [ruleId, groups, since],
    );
    return rows.map((r) => ({ group_key: r.group_key, seq: Number(r.seq), event_id: r.event_id, at: Number(r.at) }));
  },

  /** Replaces the windows of these groups with what is left of them after the batch. */
  async saveWindows(q: Queryable, ruleId: string, groups: string[], left: WindowMatch[]): Promise<void> {
    await q.query('delete from alert_matches where rule_id = $1 and group_key = any($2::text[])', [ruleId, groups]);
    if (!left.length) return;
    await q.query(
      `insert into alert_matches (rule_id, group_key, seq, event_id, recorded_at)
       select $1, g, s, e, to_timestamp(a::float8 / 1000) from unnest($2::text[], $3::bigint[], $4::uuid[], $5::bigint[]) as u(g, s, e, a)`,
      [ruleId, left.map((m) => m.group_key), left.map((m) => m.seq), left.map((m) => m.event_id), left.map((m) => m.at)],
    );
  },

  /** Drops the team's matches past their rule's window and the cooldowns over (groups never seen again would stay). */
  async forgetExpired(q: Queryable, teamSlug: string): Promise<void> {
    await q.query(
      `delete from alert_matches m using alert_rules r
       where m.rule_id = r.id and r.team_slug = $1 and r.condition->>'kind' = 'threshold'
         and m.recorded_at < now() - make_interval(mins => (r.condition->>'minutes')::int)`,
      [teamSlug],
    );
    await q.query(
      'delete from alert_cooldowns c using alert_rules r where c.rule_id = r.id and r.team_slug = $1 and c.until < now()',
      [teamSlug],
    );
  },

  /** Until when (epoch ms) each of these groups of the rule stays quiet. */
  async cooldowns(q: Queryable, ruleId: string, groups: string[]): Promise<Map<string, number>> {
    const rows = await q.query<{ group_key: string; until: string }>(
      `select group_key, floor(extract(epoch from until) * 1000)::bigint::text as until
       from alert_cooldowns where rule_id = $1 and group_key = any($2::text[])`,
      [ruleId, groups],
    );
    return new Map(rows.map((r) => [r.group_key, Number(r.until)]));
  },

  async setCooldown(q: Queryable, ruleId: string, group: string, until: number): Promise<void> {
    await q.query(
      `insert into alert_cooldowns (rule_id, group_key, until) values ($1, $2, to_timestamp($3::float8 / 1000))
       on conflict (rule_id, group_key) do update set until = excluded.until`,
      [ruleId, group, until],
    );
  },

  /** A firing, made once per rule and window: null when this window already fired. */
  async fire(
    q: Queryable,
    f: {
      id: string;
      ruleId: string;
      teamSlug: string;
      windowKey: string;
      group: string;
      events: { id: string; seq: number }[];
      test?: boolean;
    },
  ): Promise<string | null> {
    const [row] = await q.query<{ id: string }>(
      `insert into alert_firings (id, rule_id, team_slug, window_key, group_key, event_ids, event_seqs, test)
       values ($1, $2, $3, $4, $5, $6::uuid[], $7::bigint[], $8)
       on conflict (rule_id, window_key) do nothing returning id`,
      [f.id, f.ruleId, f.teamSlug, f.windowKey, f.group, f.events.map((e) => e.id), f.events.map((e) => e.seq), f.test ?? false],
    );
    return row?.id ?? null;
  },

  async addDeliveries(
    q: Queryable,
    firingId: string,
    destinations: { id: string; kind: string; done: boolean }[],
  ): Promise<void> {
    await q.query(
      `insert into alert_deliveries (firing_id, destination_id, kind, status, delivered_at)
       select $1, d, k, case when done then 'delivered' else 'pending' end, case when done then now() end
       from unnest($2::text[], $3::text[], $4::boolean[]) as u(d, k, done)`,
      [firingId, destinations.map((d) => d.id), destinations.map((d) => d.kind), destinations.map((d) => d.done)],
    );
  },

  async firing(q: Queryable, id: string): Promise<FiringRow | null> {
    const [row] = await q.query<FiringRow>(
      'select id, rule_id, team_slug, group_key, event_ids::text[], event_seqs::text[], test, fired_at from alert_firings where id = $1',
      [id],
    );
    return row ?? null;
  },

  /** One page of a rule's firings, newest first. */
  async firings(q: Queryable, ruleId: string, limit: number, offset: number): Promise<FiringRow[]> {
    return q.query<FiringRow>(
      `select id, rule_id, team_slug, group_key, event_ids::text[], event_seqs::text[], test, fired_at
       from alert_firings where rule_id = $1 order by fired_at desc, id limit $2 offset $3`,
      [ruleId, limit, offset],
    );
  },

  async countFirings(q: Queryable, ruleId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>('select count(*)::int as n from alert_firings where rule_id = $1', [ruleId]);
    return row?.n ?? 0;
  },

  async deliveries(q: Queryable, firingIds: string[]): Promise<DeliveryRow[]> {
    return q.query<DeliveryRow>(
      `select firing_id, destination_id, kind, status, attempts, last_error from alert_deliveries
       where firing_id = any($1::uuid[]) order by destination_id`,
      [firingIds],
    );
  },

  /** One attempt at a delivery: delivered, or its error kept (failed for good once `final`). */
  /**
   * One attempt's outcome: delivered without an error, otherwise pending again or failed when final.
   * A delivered one may keep a note in last_error (recipients left out, no longer administrators).
   */
  async attempted(
    q: Queryable,
    firingId: string,
    destinationId: string,
    error: string | null,
    final: boolean,
    note: string | null = null,
  ): Promise<void> {
    await q.query(
      `update alert_deliveries set attempts = attempts + 1, last_error = coalesce($3::text, $5::text),
         status = case when $3::text is null then 'delivered' when $4 then 'failed' else 'pending' end,
         delivered_at = case when $3::text is null then now() end
       where firing_id = $1 and destination_id = $2`,
      [firingId, destinationId, error?.slice(0, 500) ?? null, final, note?.slice(0, 500) ?? null],
    );
  },
};
