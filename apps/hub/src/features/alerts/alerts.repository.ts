import type { AlertCondition, AlertDestination } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export type StoredCondition =
  | { kind: 'every' }
  | { kind: 'threshold'; count: number; minutes: number; group_by: 'actor' | 'ip' | 'target' | null };

export interface RuleRow {
  id: string;
  team_slug: string;
  name: string;
  template: string | null;
  filters: Record<string, unknown>;
  condition: StoredCondition;
  cooldown_minutes: number;
  destinations: AlertDestination[];
  secrets_sealed: string;
  enabled: boolean;
  from_seq: string | number;
  created_by: string;
  updated_at: Date;
  last_fired_at: Date | null;
}

export interface RuleFields {
  name: string;
  template: string | null;
  filters: Record<string, unknown>;
  condition: AlertCondition;
  cooldown_minutes: number;
  destinations: AlertDestination[];
  secrets_sealed: string;
  enabled: boolean;
}

const COLUMNS = `r.id, r.team_slug, r.name, r.template, r.filters, r.condition, r.cooldown_minutes, r.destinations,
  r.secrets_sealed, r.enabled, r.from_seq, r.created_by, r.updated_at,
  (select max(f.fired_at) from alert_firings f where f.rule_id = r.id and not f.test) as last_fired_at`;

/** The rules themselves and each team's evaluation cursor. */
export const alertsRepository = {
  async list(q: Queryable, teamSlug: string): Promise<RuleRow[]> {
    return q.query<RuleRow>(`select ${COLUMNS} from alert_rules r where r.team_slug = $1 order by r.created_at, r.name`, [
      teamSlug,
    ]);
  },

  async enabled(q: Queryable, teamSlug: string): Promise<RuleRow[]> {
    return q.query<RuleRow>(`select ${COLUMNS} from alert_rules r where r.team_slug = $1 and r.enabled order by r.id`, [
      teamSlug,
    ]);
  },

  async byId(q: Queryable, teamSlug: string, id: string): Promise<RuleRow | null> {
    const [row] = await q.query<RuleRow>(`select ${COLUMNS} from alert_rules r where r.team_slug = $1 and r.id = $2`, [
      teamSlug,
      id,
    ]);
    return row ?? null;
  },

  async count(q: Queryable, teamSlug: string): Promise<number> {
    const [row] = await q.query<{ n: number }>('select count(*)::int as n from alert_rules where team_slug = $1', [teamSlug]);
    return row?.n ?? 0;
  },

  async nameTaken(q: Queryable, teamSlug: string, name: string, exceptId?: string): Promise<boolean> {
    const rows = await q.query('select 1 from alert_rules where team_slug = $1 and lower(name) = lower($2) and id <> $3', [
      teamSlug,
      name,
      exceptId ?? '00000000-0000-0000-0000-000000000000',
    ]);
    return rows.length > 0;
  },

  async insert(q: Queryable, teamSlug: string, id: string, actor: string, f: RuleFields, fromSeq: number): Promise<void> {
    await q.query(
      `insert into alert_rules (id, team_slug, name, template, filters, condition, cooldown_minutes, destinations, secrets_sealed, enabled, created_by, from_seq)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        id,
        teamSlug,
        f.name,
        f.template,
        JSON.stringify(f.filters),
        JSON.stringify(f.condition),
        f.cooldown_minutes,
        JSON.stringify(f.destinations),
        f.secrets_sealed,
        f.enabled,
        actor,
        fromSeq,
      ],
    );
  },

  async update(q: Queryable, id: string, f: RuleFields): Promise<void> {
    await q.query(
      `update alert_rules set name = $2, filters = $3, condition = $4, cooldown_minutes = $5, destinations = $6,
         secrets_sealed = $7, enabled = $8, updated_at = now() where id = $1`,
      [
        id,
        f.name,
        JSON.stringify(f.filters),
        JSON.stringify(f.condition),
        f.cooldown_minutes,
        JSON.stringify(f.destinations),
        f.secrets_sealed,
        f.enabled,
      ],
    );
  },

  /** Switched on, a rule looks at events after the head (`fromSeq`): none of those that came while it was off. */
  async setEnabled(q: Queryable, id: string, enabled: boolean, fromSeq: number): Promise<void> {
    await q.query(
      `update alert_rules set enabled = $2, from_seq = case when $2 and not enabled then $3 else from_seq end, updated_at = now()
       where id = $1`,
      [id, enabled, fromSeq],
    );
  },

  async remove(q: Queryable, id: string): Promise<void> {
    await q.query('delete from alert_rules where id = $1', [id]);
  },

  /** The team's cursor starts at the chain's head when its first rule is made: rules look forward, not back. */
  async startCursor(q: Queryable, teamSlug: string, headSeq: number): Promise<void> {
    await q.query('insert into alert_cursors (team_slug, cursor_seq) values ($1, $2) on conflict (team_slug) do nothing', [
      teamSlug,
      headSeq,
    ]);
  },

  /** Teams with a rule switched on and no run holding them, with their cursor and last run (epoch ms). */
  async due(q: Queryable): Promise<{ team_slug: string; cursor_seq: number; run: number }[]> {
    const rows = await q.query<{ team_slug: string; cursor_seq: string; run: string }>(
      `select c.team_slug, c.cursor_seq::text, coalesce(floor(extract(epoch from c.last_run_at) * 1000), 0)::bigint::text as run
       from alert_cursors c
       where (c.lease_until is null or c.lease_until < now())
         and exists (select 1 from alert_rules r where r.team_slug = c.team_slug and r.enabled)`,
    );
    return rows.map((r) => ({ team_slug: r.team_slug, cursor_seq: Number(r.cursor_seq), run: Number(r.run) }));
  },

  /** Takes the team's log for one run; null while another run holds it. */
  async lease(q: Queryable, teamSlug: string, seconds: number): Promise<number | null> {
    const [row] = await q.query<{ cursor_seq: string }>(
      `update alert_cursors set lease_until = now() + make_interval(secs => $2), last_run_at = now()
       where team_slug = $1 and (lease_until is null or lease_until < now()) returning cursor_seq::text`,
      [teamSlug, seconds],
    );
    return row ? Number(row.cursor_seq) : null;
  },

  async release(q: Queryable, teamSlug: string): Promise<void> {
    await q.query('update alert_cursors set lease_until = null where team_slug = $1', [teamSlug]);
  },

  /**
   * Locks the team's cursor for the caller's transaction: a batch's evaluation and a rule's start
   * (its `from_seq`) then happen one after the other, so a new rule sees every event after its start.
   */
  async lockCursor(q: Queryable, teamSlug: string): Promise<number | null> {
    const [row] = await q.query<{ cursor_seq: string }>(
      'select cursor_seq::text from alert_cursors where team_slug = $1 for update',
      [teamSlug],
    );
    return row ? Number(row.cursor_seq) : null;
  },

  /** Moves the cursor from where this run read it; false when it moved meanwhile (the batch is then undone). */
  async advance(q: Queryable, teamSlug: string, from: number, to: number): Promise<boolean> {
    const rows = await q.query('update alert_cursors set cursor_seq = $3 where team_slug = $1 and cursor_seq = $2 returning 1', [
      teamSlug,
      from,
      to,
    ]);
    return rows.length > 0;
  },
};
