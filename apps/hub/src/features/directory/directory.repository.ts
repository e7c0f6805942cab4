import type { DirectoryKind, DirectoryMapping, DirectorySecurity } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface ConnectionRow {
  team_slug: string;
  kind: DirectoryKind;
  url: string;
  security: DirectorySecurity;
  ca_pem: string;
  bind_dn: string;
  bind_password_sealed: string;
  base_dns: string[];
  mapping: DirectoryMapping;
  remove_missing: boolean;
  interval_minutes: number | null;
  applied_at: Date | null;
  next_run_at: Date | null;
}

export interface RunRow {
  id: string;
  team_slug: string;
  trigger: 'preview' | 'apply' | 'sync_now' | 'schedule';
  actor: string;
  started_at: Date;
  finished_at: Date | null;
  outcome: 'running' | 'previewed' | 'applied' | 'unchanged' | 'failed';
  error_code: string | null;
  error_message: string | null;
  counts: Record<string, number>;
  sample: Record<string, string[]>;
  plan_hash: string | null;
}

const CONNECTION =
  'team_slug, kind, url, security, ca_pem, bind_dn, bind_password_sealed, base_dns, mapping, remove_missing, interval_minutes, applied_at, next_run_at';
const RUN =
  'id, team_slug, trigger, actor, started_at, finished_at, outcome, error_code, error_message, counts, sample, plan_hash';

export const directoryRepository = {
  async connection(q: Queryable, teamSlug: string): Promise<ConnectionRow | undefined> {
    const [row] = await q.query<ConnectionRow>(`select ${CONNECTION} from directory_connections where team_slug = $1`, [
      teamSlug,
    ]);
    return row;
  },

  async save(q: Queryable, c: Omit<ConnectionRow, 'applied_at' | 'next_run_at'>, actor: string): Promise<void> {
    await q.query(
      `insert into directory_connections (team_slug, kind, url, security, ca_pem, bind_dn, bind_password_sealed, base_dns, mapping,
         remove_missing, interval_minutes, updated_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       on conflict (team_slug) do update set kind = $2, url = $3, security = $4, ca_pem = $5, bind_dn = $6,
         bind_password_sealed = $7, base_dns = $8, mapping = $9, remove_missing = $10, interval_minutes = $11,
         updated_by = $12, updated_at = now(),
         next_run_at = case when $11::int is null then null else directory_connections.next_run_at end`,
      [
        c.team_slug,
        c.kind,
        c.url,
        c.security,
        c.ca_pem,
        c.bind_dn,
        c.bind_password_sealed,
        JSON.stringify(c.base_dns),
        JSON.stringify(c.mapping),
        c.remove_missing,
        c.interval_minutes,
        actor,
      ],
    );
  },

  async remove(q: Queryable, teamSlug: string): Promise<boolean> {
    return (await q.query('delete from directory_connections where team_slug = $1 returning team_slug', [teamSlug])).length > 0;
  },

  /** After a sync that applied: the next scheduled run, when there is a schedule. */
  async applied(q: Queryable, teamSlug: string): Promise<void> {
    await q.query(
      `update directory_connections set applied_at = now(),
         next_run_at = case when interval_minutes is null then null else now() + make_interval(mins => interval_minutes) end
       where team_slug = $1`,
      [teamSlug],
    );
  },

  async scheduleNext(q: Queryable, teamSlug: string): Promise<void> {
    await q.query(
      `update directory_connections set next_run_at = case when interval_minutes is null then null
         else now() + make_interval(mins => interval_minutes) end where team_slug = $1`,
      [teamSlug],
    );
  },

  /** Teams whose scheduled sync is due. */
  async due(q: Queryable): Promise<string[]> {
    const rows = await q.query<{ team_slug: string }>(
      'select team_slug from directory_connections where applied_at is not null and next_run_at <= now() order by next_run_at',
    );
    return rows.map((r) => r.team_slug);
  },

  async startRun(q: Queryable, run: Pick<RunRow, 'id' | 'team_slug' | 'trigger' | 'actor'>): Promise<void> {
    await q.query('insert into directory_runs (id, team_slug, trigger, actor) values ($1, $2, $3, $4)', [
      run.id,
      run.team_slug,
      run.trigger,
      run.actor,
    ]);
  },

  async finishRun(
    q: Queryable,
    id: string,
    end: Pick<RunRow, 'outcome' | 'counts' | 'sample'> & {
      plan_hash?: string | null;
      error_code?: string;
      error_message?: string;
    },
  ): Promise<RunRow> {
    const [row] = await q.query<RunRow>(
      `update directory_runs set finished_at = now(), outcome = $2, counts = $3, sample = $4, plan_hash = $5, error_code = $6, error_message = $7
       where id = $1 returning ${RUN}`,
      [
        id,
        end.outcome,
        JSON.stringify(end.counts),
        JSON.stringify(end.sample),
        end.plan_hash ?? null,
        end.error_code ?? null,
        end.error_message ?? null,
      ],
    );
    return row as RunRow;
  },

  /** Runs a killed Hub left running for more than an hour: failed, so the team can sync again. */
  async endAbandoned(q: Queryable, teamSlug: string): Promise<void> {
    await q.query(
      `update directory_runs set outcome = 'failed', finished_at = now(), error_code = 'interrupted',
         error_message = 'the run was interrupted' where team_slug = $1 and outcome = 'running' and started_at < now() - interval '1 hour'`,
      [teamSlug],
    );
  },

  async run(q: Queryable, teamSlug: string, id: string): Promise<RunRow | undefined> {
    const [row] = await q.query<RunRow>(`select ${RUN} from directory_runs where team_slug = $1 and id = $2`, [teamSlug, id]);
    return row;
  },

  runs(q: Queryable, teamSlug: string, limit = 20): Promise<RunRow[]> {
    return q.query<RunRow>(`select ${RUN} from directory_runs where team_slug = $1 order by started_at desc, id limit $2`, [
      teamSlug,
      limit,
    ]);
  },
};
