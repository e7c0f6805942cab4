import type { AppUsage, LicenseStatus, MemberFilters, MemberSource, MemberStatus } from '@latchkey/contracts';
import { containsPattern, type Queryable } from '@latchkey/runtime';

export interface MemberRow {
  email: string;
  name: string;
  licensed: boolean;
  usage: AppUsage;
  status: MemberStatus;
  onboarded_at: Date;
  last_active_at: Date | null;
  source: MemberSource;
}

/**
 * The list's filters, with the members that have a Hub-authenticated device when the list filters
 * on that (features/devices knows them; the service asks it).
 */
export type MemberQuery = MemberFilters & { hubAuthenticated?: readonly string[] };

const MEMBER_COLUMNS = 'email, name, licensed, usage, status, onboarded_at, last_active_at, source';
/** Current members of team $1. */
const CURRENT = 'team_id = $1 and deboarded_at is null';
/**
 * How many members a search reads in email order, from the index alone, before it asks the
 * trigram index instead. Walking costs ~0.35 µs a member; reading a term's matches through the
 * trigram index ~1.3 µs a match (recheck and sort). A term that just misses a walk of W members has
 * about page × N / W matches, so the worst case is cheapest near W = √(40 N): ~2,000 for a team of
 * 100,000 (smaller teams are cheap either way). A common term fills its page well within it.
 */
const SEARCH_WALK = 2500;
/** The list's statements are the console's hottest: planned once per connection (planning was about a fifth of a search). */
const PREPARED = { prepare: true };

/**
 * The filters as SQL on a `members` row (true when none), built from only the filters given so the
 * planner sees plain predicates. Parameter $1 is the team.
 */
function memberFilters(teamId: string, filters: MemberQuery): { sql: string; params: unknown[] } {
  const params: unknown[] = [teamId];
  const clauses: string[] = [];
  const search = filters.search_value?.trim();
  if (search) {
    params.push(containsPattern(search));
    clauses.push(`search_text like $${params.length}`);
  }
  const licence = filters.license_status ?? [];
  if (licence.length === 1) clauses.push(licence[0] === ('licensed' satisfies LicenseStatus) ? 'licensed' : 'not licensed');
  const usage = filters.app_usage ?? [];
  if (usage.length > 0 && usage.length < 3) {
    params.push(usage);
    clauses.push(`usage = any($${params.length}::text[])`);
  }
  const sources = filters.source ?? [];
  if (sources.length > 0 && sources.length < 3) {
    params.push(sources);
    clauses.push(`source = any($${params.length}::text[])`);
  }
  if (filters.hub_authentication) {
    params.push(filters.hubAuthenticated ?? []);
    const has = `id = any($${params.length}::uuid[])`;
    clauses.push(filters.hub_authentication === 'authenticated' ? has : `not (${has})`);
  }
  return { sql: clauses.join(' and ') || 'true', params };
}

export const membersRepository = {
  async page(
    q: Queryable,
    teamId: string,
    filters: MemberQuery,
    after: string | null | undefined,
    limit: number,
  ): Promise<MemberRow[]> {
    const where = memberFilters(teamId, filters);
    const params = [...where.params];
    if (after) params.push(after);
    const cursor = after ? ` and email > $${params.length}` : '';
    params.push(limit);
    const $limit = `$${params.length}`;
    if ((filters.search_value?.trim().length ?? 0) < 3) {
      return q.query<MemberRow>(
        `select ${MEMBER_COLUMNS} from members where ${CURRENT} and ${where.sql}${cursor} order by email limit ${$limit}`,
        params,
        PREPARED,
      );
    }
    // First walk the next SEARCH_WALK members in email order (an index-only scan that stops at the
    // page's last match), then read the page's rows.
    const walked = filters.hub_authentication ? 'id, email, search_text, licensed, usage' : 'email, search_text, licensed, usage';
    const page = await q.query<MemberRow>(
      `select ${MEMBER_COLUMNS} from members where ${CURRENT} and email = any(array(
         select email from (select ${walked} from members where ${CURRENT}${cursor} order by email limit ${SEARCH_WALK})
           as members where ${where.sql} order by email limit ${$limit}))
       order by email`,
      params,
      PREPARED,
    );
    if (page.length === limit) return page;
    // Too few within the walk: the term is rare, so read its matches through the trigram index.
    return q.query<MemberRow>(
      `with matches as materialized (select ${MEMBER_COLUMNS} from members where ${CURRENT} and ${where.sql})
       select * from matches where true${cursor} order by email limit ${$limit}`,
      params,
      PREPARED,
    );
  },

  async count(q: Queryable, teamId: string, filters: MemberQuery): Promise<number> {
    const where = memberFilters(teamId, filters);
    const [row] = await q.query<{ n: number }>(
      `select count(*)::int as n from members where ${CURRENT} and ${where.sql}`,
      where.params,
    );
    return row?.n ?? 0;
  },

  async all(q: Queryable, teamId: string, filters: MemberQuery): Promise<MemberRow[]> {
    const where = memberFilters(teamId, filters);
    return q.query<MemberRow>(
      `select ${MEMBER_COLUMNS} from members where ${CURRENT} and ${where.sql} order by email`,
      where.params,
    );
  },

  /** Current members among `emails`. */
  async current(q: Queryable, teamId: string, emails: string[]): Promise<MemberRow[]> {
    return q.query<MemberRow>(
      `select ${MEMBER_COLUMNS} from members where team_id = $1 and deboarded_at is null and email = any($2::text[])`,
      [teamId, emails],
    );
  },

  /** How many current members of the team hold a licence (features/team's lockLicences counts them so). */
  async countLicensed(q: Queryable, teamId: string): Promise<number> {
    const [used] = await q.query<{ n: number }>(
      'select count(*)::int as n from members where team_id = $1 and deboarded_at is null and licensed',
      [teamId],
    );
    return used?.n ?? 0;
  },

  async setLicensed(q: Queryable, teamId: string, emails: string[], licensed: boolean): Promise<string[]> {
    const rows = await q.query<{ email: string }>(
      `update members set licensed = $3 where team_id = $1 and deboarded_at is null and email = any($2::text[])
       and licensed <> $3 returning email`,
      [teamId, emails, licensed],
    );
    return rows.map((r) => r.email);
  },

  /**
   * Suspends (remembering the status it ends) or restores (to the status the suspension ended, so a
   * member who never joined stays invited; `to` when not known).
   */
  async setStatus(q: Queryable, teamId: string, emails: string[], from: MemberStatus, to: MemberStatus): Promise<string[]> {
    const rows = await q.query<{ email: string }>(
      `update members set
         status = case when $4 = 'suspended' then $4 else coalesce(status_before_suspension, $4) end,
         status_before_suspension = case when $4 = 'suspended' then status end
       where team_id = $1 and deboarded_at is null and email = any($2::text[]) and status = $3 returning email`,
      [teamId, emails, from, to],
    );
    return rows.map((r) => r.email);
  },

  async deboard(q: Queryable, teamId: string, emails: string[]): Promise<string[]> {
    const rows = await q.query<{ email: string }>(
      `update members set deboarded_at = now(), licensed = false where team_id = $1 and deboarded_at is null
       and email = any($2::text[]) returning email`,
      [teamId, emails],
    );
    return rows.map((r) => r.email);
  },

  /** New members, or former members coming back, as invited and licensed. */
  async invite(q: Queryable, teamId: string, emails: string[]): Promise<string[]> {
    const rows = await q.query<{ email: string }>(
      `insert into members (team_id, email, status, licensed, usage, invited_at, onboarded_at)
       select $1, e, 'invited', true, 'unresponsive', now(), now() from unnest($2::text[]) as e
       on conflict (team_id, email) do update set deboarded_at = null, status = 'invited', licensed = true,
         usage = 'unresponsive', invited_at = now(), onboarded_at = now(), last_active_at = null
       where members.deboarded_at is not null
       returning email`,
      [teamId, emails],
    );
    return rows.map((r) => r.email);
  },

  async touchInvited(q: Queryable, teamId: string, emails: string[]): Promise<void> {
    await q.query('update members set invited_at = now() where team_id = $1 and email = any($2::text[])', [teamId, emails]);
  },

  /** Many entries of the member history in one statement: a row per email of each. */
  async insertHistoryMany(
    q: Queryable,
    teamId: string,
    actorId: string | null,
    entries: readonly { action: string; emails: readonly string[]; detail: Record<string, unknown> }[],
  ): Promise<void> {
    const rows = entries.flatMap((e) => e.emails.map((email) => ({ action: e.action, email, detail: e.detail })));
    if (rows.length === 0) return;
    await q.query(
      `insert into member_events (team_id, actor_id, action, target_email, detail)
       select $1, $2, x.action, x.email, x.detail from jsonb_to_recordset($3::jsonb) as x(action text, email text, detail jsonb)`,
      [teamId, actorId, JSON.stringify(rows)],
    );
  },

  /** The team's member history (member_events): one row per email. */
  async insertHistory(
    q: Queryable,
    teamId: string,
    actorId: string | null,
    action: string,
    emails: readonly string[],
    detail: Record<string, unknown>,
  ): Promise<void> {
    await q.query(
      `insert into member_events (team_id, actor_id, action, target_email, detail)
       select $1, $2, $3, e, $4 from unnest($5::text[]) as e`,
      [teamId, actorId, action, JSON.stringify(detail), emails],
    );
  },

  async activity(q: Queryable, teamId: string) {
    const [row] = await q.query<{
      active_members: number;
      inactive_members: number;
      unresponsive_members: number;
      unlicensed_members: number;
    }>(
      `select count(*) filter (where usage = 'active')::int as active_members,
        count(*) filter (where usage = 'inactive')::int as inactive_members,
        count(*) filter (where usage = 'unresponsive')::int as unresponsive_members,
        count(*) filter (where not licensed)::int as unlicensed_members
       from members where team_id = $1 and deboarded_at is null`,
      [teamId],
    );
    return row ?? { active_members: 0, inactive_members: 0, unresponsive_members: 0, unlicensed_members: 0 };
  },

  /** Joiners and leavers per month for the last 12 months (UTC), oldest first: one index range each. */
  async provisioning(q: Queryable, teamId: string) {
    return q.query<{ date: number; month: string; year: number; onboarded: number; deboarded: number }>(
      `with months as (
         select generate_series(date_trunc('month', now() at time zone 'UTC') - interval '11 months',
           date_trunc('month', now() at time zone 'UTC'), interval '1 month') as m
       ),
       since as (select min(m) at time zone 'UTC' as at from months),
       joined as (
         select date_trunc('month', onboarded_at at time zone 'UTC') as m, count(*)::int as n
         from members where team_id = $1 and onboarded_at >= (select at from since) group by 1
       ),
       departed as (
         select date_trunc('month', deboarded_at at time zone 'UTC') as m, count(*)::int as n
         from members where team_id = $1 and deboarded_at >= (select at from since) group by 1
       )
       select (extract(epoch from m) * 1000)::bigint::float8 as date, to_char(m, 'MM') as month,
         extract(year from m)::int as year, coalesce(joined.n, 0) as onboarded, coalesce(departed.n, 0) as deboarded
       from months left join joined using (m) left join departed using (m) order by m`,
      [teamId],
    );
  },

  /** How many current members the team has. */
  async countCurrent(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>(
      'select count(*)::int as n from members where team_id = $1 and deboarded_at is null',
      [teamId],
    );
    return row?.n ?? 0;
  },

  /** Current members of the team among `emails`, with their ids. */
  async currentIds(q: Queryable, teamId: string, emails: string[]) {
    return q.query<{ id: string; email: string }>(
      'select id, email from members where team_id = $1 and deboarded_at is null and email = any($2::text[])',
      [teamId, emails],
    );
  },

  /** One current member by email, with the id other tables refer to. */
  async findCurrent(q: Queryable, teamId: string, email: string) {
    const [row] = await q.query<{ id: string; email: string; name: string; status: MemberStatus; source: MemberSource }>(
      'select id, email, name, status, source from members where team_id = $1 and email = $2 and deboarded_at is null',
      [teamId, email],
    );
    return row;
  },

  // ── For other rooms' lookups (policies, billing, the operator's export) ──

  /** The team's current members' ids and emails, by email. */
  async currentIdsByEmail(q: Queryable, teamId: string): Promise<{ id: string; email: string }[]> {
    return q.query('select id, email from members where team_id = $1 and deboarded_at is null order by email', [teamId]);
  },

  /** One current member by email in any case. */
  async findCurrentAnyCase(q: Queryable, teamId: string, email: string) {
    const [row] = await q.query<{ id: string; email: string; name: string }>(
      'select id, email, name from members where team_id = $1 and lower(email) = lower($2) and deboarded_at is null',
      [teamId, email],
    );
    return row;
  },

  /** Which of `emails` (in any case) are not current members of the team. */
  async notCurrent(q: Queryable, teamId: string, emails: string[]): Promise<string[]> {
    if (emails.length === 0) return [];
    const rows = await q.query<{ email: string }>(
      `select e as email from unnest($2::text[]) as e
       where not exists (select 1 from members m where m.team_id = $1 and lower(m.email) = lower(e) and m.deboarded_at is null)`,
      [teamId, emails],
    );
    return rows.map((r) => r.email);
  },

  /** How many licences the team's current members hold. */
  async licensedCount(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>(
      'select count(*)::int as n from members where team_id = $1 and deboarded_at is null and licensed',
      [teamId],
    );
    return row?.n ?? 0;
  },

  /** The emails of these members (former ones too), by email. */
  async emailsByIds(q: Queryable, ids: string[]): Promise<{ id: string; email: string }[]> {
    if (ids.length === 0) return [];
    return q.query('select id, email from members where id = any($1::uuid[]) order by email', [ids]);
  },

  /** One page of every member (former ones too) after `afterEmail`, by email: the operator's export. */
  async exportPage(q: Queryable, teamId: string, afterEmail: string, limit: number) {
    return q.query<{ email: string }>(
      `select email, name, licensed, usage, onboarded_at, deboarded_at, last_active_at
       from members where team_id = $1 and email > $2 order by email limit $3`,
      [teamId, afterEmail, limit],
    );
  },
};
