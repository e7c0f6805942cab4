import type { AuditField } from '@latchkey/contracts';
import { containsPattern, type Queryable } from '@latchkey/runtime';

export interface SummaryRow {
  summary_id: string;
  email: string;
  total_items: number;
  weak: number;
  reused: number;
  old: number;
  compromised: number;
  score: number;
  updated_at: Date;
}

export interface SummaryCounts {
  total_items: number;
  weak: number;
  reused: number;
  old: number;
  compromised: number;
  score: number;
}

const COLUMNS = 'id as summary_id, email, total_items, weak, reused, old, compromised, score, updated_at';

/** Sort columns by contract field: a fixed map, so no caller text reaches the SQL. */
const ORDER: Record<AuditField, string> = {
  email: 'email',
  score: 'score',
  weak: 'weak',
  reused: 'reused',
  old: 'old',
  compromised: 'compromised',
  total_items: 'total_items',
  updated_at: 'updated_at',
};

export const auditRepository = {
  /** One summary per member: a newer report replaces the last. */
  async upsert(q: Queryable, teamSlug: string, email: string, s: SummaryCounts): Promise<string> {
    const [row] = await q.query<{ id: string }>(
      `insert into vault_summaries (team_slug, email, total_items, weak, reused, old, compromised, score)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (team_slug, email) do update set total_items = excluded.total_items, weak = excluded.weak,
         reused = excluded.reused, old = excluded.old, compromised = excluded.compromised, score = excluded.score,
         updated_at = now()
       returning id`,
      [teamSlug, email, s.total_items, s.weak, s.reused, s.old, s.compromised, s.score],
    );
    return row?.id as string;
  },

  /** One page in the chosen order; `total` only for a search (without one, it is the team's count). */
  async page(
    q: Queryable,
    teamSlug: string,
    o: { field: AuditField; desc: boolean; search: string; limit: number; offset: number },
  ): Promise<{ rows: SummaryRow[]; total: number | null }> {
    const where = "team_slug = $1 and ($2 = '' or email like $3)";
    const params = [teamSlug, o.search, containsPattern(o.search)];
    const dir = o.desc ? 'desc' : 'asc';
    // The member's email breaks ties, so pages never overlap. The offset is skipped over ids alone
    // (index-only in score order), then the page's rows are read.
    const order = `${ORDER[o.field]} ${dir}, email ${dir}`;
    const rows = await q.query<SummaryRow>(
      `select ${COLUMNS} from vault_summaries where id = any(array(
         select id from vault_summaries where ${where} order by ${order} limit $4 offset $5))
       order by ${order}`,
      [...params, o.limit, o.offset],
    );
    if (!o.search) return { rows, total: null };
    const [count] = await q.query<{ n: number }>(`select count(*)::int as n from vault_summaries where ${where}`, params);
    return { rows, total: count?.n ?? 0 };
  },

  /** The team's totals, as the database keeps them (migration 0005 `vault_totals`). */
  async totals(q: Queryable, teamSlug: string) {
    const [row] = await q.query<{
      members: number;
      average_score: number | null;
      weak: number;
      reused: number;
      old: number;
      compromised: number;
    }>(
      `select members::int, round(score_sum::numeric / nullif(members, 0))::int as average_score,
         weak::int, reused::int, old::int, compromised::int
       from vault_totals where team_slug = $1`,
      [teamSlug],
    );
    return row ?? { members: 0, average_score: null, weak: 0, reused: 0, old: 0, compromised: 0 };
  },

  async find(q: Queryable, teamSlug: string, id: string): Promise<SummaryRow | undefined> {
    const [row] = await q.query<SummaryRow>(`select ${COLUMNS} from vault_summaries where team_slug = $1 and id = $2`, [
      teamSlug,
      id,
    ]);
    return row;
  },
};
