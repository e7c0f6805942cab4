import { randomUUID } from 'node:crypto';
import type { SiemStatus, SiemToolName } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { eventLogReads } from '../eventlogs/index.ts';
import type { SiemConfig } from './senders.ts';

export interface DestinationRow {
  id: string;
  team_slug: string;
  siem_tool: SiemToolName;
  config: SiemConfig;
  status: SiemStatus;
  is_active: boolean;
  cursor_seq: string | number;
  delivered_count: string | number;
  last_error: string | null;
  last_success_at: Date | null;
  last_attempt_at: Date | null;
  /** The destination's own GUID: Splunk HEC's request channel. */
  request_channel: string;
}

const COLUMNS =
  'id, team_slug, siem_tool, config, status, is_active, cursor_seq, delivered_count, last_error, last_success_at, last_attempt_at, request_channel';

export const siemRepository = {
  /** Switched-on destinations that delivered their last batch, and those failing (waiting for a retry). */
  async deliveryStates(q: Queryable): Promise<{ delivering: number; failing: number }> {
    const [row] = await q.query<{ delivering: number; failing: number }>(
      `select count(*) filter (where failures = 0)::int as delivering, count(*) filter (where failures > 0)::int as failing
         from siem_destinations where is_active`,
    );
    return row ?? { delivering: 0, failing: 0 };
  },

  async forTeam(q: Queryable, teamSlug: string): Promise<DestinationRow | null> {
    const [row] = await q.query<DestinationRow>(`select ${COLUMNS} from siem_destinations where team_slug = $1`, [teamSlug]);
    return row ?? null;
  },

  async byId(q: Queryable, id: string): Promise<DestinationRow | null> {
    const [row] = await q.query<DestinationRow>(`select ${COLUMNS} from siem_destinations where id = $1`, [id]);
    return row ?? null;
  },

  /**
   * Creates or replaces the team's destination; a new one starts at the chain's head (backfill goes
   * further back) with the request channel its test event used; a replaced one keeps its channel.
   */
  async save(
    q: Queryable,
    teamSlug: string,
    tool: SiemToolName,
    config: SiemConfig,
    startSeq: number,
    requestChannel: string = randomUUID(),
    status: Extract<SiemStatus, 'tested' | 'pending'> = 'tested',
  ): Promise<DestinationRow> {
    const [row] = await q.query<DestinationRow>(
      `insert into siem_destinations (team_slug, siem_tool, config, status, is_active, cursor_seq, request_channel)
       values ($1, $2, $3, $6, false, $4, $5)
       on conflict (team_slug) do update set siem_tool = excluded.siem_tool, config = excluded.config,
         status = excluded.status, last_error = null, updated_at = now()
       returning ${COLUMNS}`,
      [teamSlug, tool, JSON.stringify(config), startSeq, requestChannel, status],
    );
    return row as DestinationRow;
  },

  async setActive(q: Queryable, id: string, active: boolean): Promise<void> {
    await q.query(
      `update siem_destinations set is_active = $2, status = case when $2 then 'active' else 'inactive' end, updated_at = now() where id = $1`,
      [id, active],
    );
  },

  /**
   * The outcome of a test event for an inactive destination (an active one stays active):
   * `tested` once the destination confirmed it, `pending` while its confirmation is outstanding,
   * `awaiting_config_verification` (waiting for a test that passes) when it refused it. `from`
   * limits the change to a destination still in one of those states (a late confirmation never
   * undoes a later edit).
   */
  async testOutcome(
    q: Queryable,
    id: string,
    status: Extract<SiemStatus, 'tested' | 'pending' | 'awaiting_config_verification'>,
    lastError: string | null,
    from?: readonly SiemStatus[],
  ): Promise<void> {
    await q.query(
      `update siem_destinations set status = case when is_active then status else $2 end, last_error = $3, updated_at = now()
       where id = $1 and ($4::text[] is null or status = any($4::text[]))`,
      [id, status, lastError?.slice(0, 500) ?? null, from ?? null],
    );
  },

  async remove(q: Queryable, id: string): Promise<void> {
    await q.query('delete from siem_destinations where id = $1', [id]);
  },

  async setCursor(q: Queryable, id: string, seq: number): Promise<void> {
    await q.query('update siem_destinations set cursor_seq = $2 where id = $1', [id, seq]);
  },

  /**
   * Destinations behind their team's head, for the pump, with their last attempt (epoch ms, 0 for
   * none): the due ones here, their teams' heads and SIEM switch from the event log in one lookup.
   */
  async behind(q: Queryable): Promise<{ id: string; cursor_seq: string | number; attempt: string | number }[]> {
    const due = await q.query<{ id: string; team_slug: string; cursor_seq: string | number; attempt: string | number }>(
      `select id, team_slug, cursor_seq, coalesce(floor(extract(epoch from last_attempt_at) * 1000), 0)::bigint as attempt
       from siem_destinations
       where is_active and (lease_until is null or lease_until < now())
         and (next_attempt_at is null or next_attempt_at <= now())`,
    );
    if (due.length === 0) return [];
    const heads = await eventLogReads.siemHeads(q, [...new Set(due.map((d) => d.team_slug))]);
    return due
      .filter((d) => {
        const head = heads.get(d.team_slug);
        return head?.siem_enabled === true && head.seq > Number(d.cursor_seq);
      })
      .map(({ id, cursor_seq, attempt }) => ({ id, cursor_seq, attempt }));
  },

  /** Takes the destination for one delivery run (no transaction held while sending); false when another run holds it. */
  async lease(q: Queryable, id: string, seconds: number): Promise<DestinationRow | null> {
    const [row] = await q.query<DestinationRow>(
      `update siem_destinations set lease_until = now() + make_interval(secs => $2), last_attempt_at = now()
       where id = $1 and is_active and (lease_until is null or lease_until < now())
       returning ${COLUMNS}`,
      [id, seconds],
    );
    return row ?? null;
  },

  async release(q: Queryable, id: string): Promise<void> {
    await q.query('update siem_destinations set lease_until = null where id = $1', [id]);
  },

  /** A batch arrived: the cursor moves past it (only forward), in one statement. */
  async delivered(q: Queryable, id: string, lastSeq: number, count: number): Promise<void> {
    await q.query(
      `update siem_destinations set cursor_seq = greatest(cursor_seq, $2), delivered_count = delivered_count + $3,
         last_success_at = now(), last_error = null, failures = 0, next_attempt_at = null,
         failing_since = null, failing_reported = false where id = $1`,
      [id, lastSeq, count],
    );
  },

  /**
   * A batch did not arrive: the next attempt waits base × 2^failures (at most max), with up to 50 %
   * jitter so destinations recovering together are not hit at once, and never less than the
   * destination's Retry-After.
   */
  async failed(
    q: Queryable,
    id: string,
    message: string,
    wait: { baseMs: number; maxMs: number; retryAfterMs?: number },
  ): Promise<void> {
    await q.query(
      `update siem_destinations set last_error = $2, failures = failures + 1, failing_since = coalesce(failing_since, now()),
         next_attempt_at = now() + make_interval(secs => greatest(
           least($3::float8 * power(2, least(failures, 30)), $4::float8) * (1 + random() * 0.5), $5::float8) / 1000)
       where id = $1`,
      [id, message.slice(0, 500), wait.baseMs, wait.maxMs, wait.retryAfterMs ?? 0],
    );
  },

  /**
   * A destination failing for `minutes` without a delivery, not said yet: marked said, and its team,
   * vendor and first failure answered (once per outage; a delivery starts the count again).
   */
  async failingFor(
    q: Queryable,
    id: string,
    minutes: number,
  ): Promise<{ team_slug: string; siem_tool: SiemToolName; failing_since: Date } | null> {
    const [row] = await q.query<{ team_slug: string; siem_tool: SiemToolName; failing_since: Date }>(
      `update siem_destinations set failing_reported = true
       where id = $1 and not failing_reported and failing_since <= now() - make_interval(mins => $2)
       returning team_slug, siem_tool, failing_since`,
      [id, minutes],
    );
    return row ?? null;
  },

  /** The admin asked for a retry now (test, activate, backfill): the backoff is forgotten. */
  async clearBackoff(q: Queryable, id: string): Promise<void> {
    await q.query('update siem_destinations set failures = 0, next_attempt_at = null where id = $1', [id]);
  },
};
