import type { JobQueue, Queryable } from '@latchkey/runtime';
import { type OwnHubEvent, recordHubEvents, type StoredEvent } from '../eventlogs/index.ts';
import { type DeliverJob, recordFiring } from './alert-firing.ts';
import { groupKey, matches, ruleFilters } from './alert-match.ts';
import { alertStateRepository as state, type WindowMatch } from './alert-state.repository.ts';
import type { RuleRow } from './alerts.repository.ts';

const MINUTE = 60_000;
/** The chain's own time of an event (monotonic in seq within a team): windows and cooldowns are measured on it. */
const timeOf = (e: StoredEvent) => Date.parse(e.recorded_at);

/**
 * Evaluates a batch of a team's events (in seq order) against its rules, in the caller's
 * transaction. Every decision depends on the events and the state kept with the cursor alone, so
 * the same batch evaluated again after a crash fires the same windows (which the unique firing
 * key then refuses to make twice). Returns how many firings were made.
 */
export async function evaluateBatch(
  q: Queryable,
  deliver: JobQueue<DeliverJob>,
  rules: readonly RuleRow[],
  events: readonly StoredEvent[],
): Promise<number> {
  let fired = 0;
  const logged: OwnHubEvent[] = [];
  for (const rule of rules) {
    const filters = ruleFilters(rule.filters);
    const from = Number(rule.from_seq);
    const hits = events.filter((e) => e.seq > from && matches(filters, e));
    if (!hits.length) continue;
    const c = rule.condition;
    const groupBy = c.kind === 'threshold' ? c.group_by : null;
    const groups = [...new Set(hits.map((e) => groupKey(groupBy, e)))];
    const quietUntil = await state.cooldowns(q, rule.id, groups);
    const quiet = (group: string, at: number) => (quietUntil.get(group) ?? 0) > at;
    const cool = async (group: string, at: number) => {
      if (rule.cooldown_minutes <= 0) return;
      const until = at + rule.cooldown_minutes * MINUTE;
      quietUntil.set(group, until);
      await state.setCooldown(q, rule.id, group, until);
    };
    const fire = async (windowKey: string, group: string, matched: { id: string; seq: number }[]) => {
      if (await recordFiring(q, deliver, rule, { windowKey, group, events: matched }, logged)) fired++;
    };

    if (c.kind === 'every') {
      for (const e of hits) {
        if (quiet('', timeOf(e))) continue;
        await fire(`seq:${e.seq}`, '', [{ id: e.id, seq: e.seq }]);
        await cool('', timeOf(e));
      }
      continue;
    }

    // N matches in M minutes per group: each group's window slides with the events; when it holds N
    // the rule fires with them and the window starts empty again.
    const span = c.minutes * MINUTE;
    const first = timeOf(hits[0] as StoredEvent);
    const windows = new Map<string, WindowMatch[]>(groups.map((g) => [g, []]));
    for (const m of await state.windows(q, rule.id, groups, first - span)) windows.get(m.group_key)?.push(m);
    for (const e of hits) {
      const group = groupKey(groupBy, e);
      const at = timeOf(e);
      // Only the newest count − 1 before this one can ever make the rule fire: the window keeps no more.
      const window = (windows.get(group) ?? []).filter((m) => m.at > at - span).slice(-(c.count - 1));
      window.push({ group_key: group, seq: e.seq, event_id: e.id, at });
      windows.set(group, window);
      if (window.length < c.count || quiet(group, at)) continue;
      await fire(
        `${group}:${e.seq}`,
        group,
        window.map((m) => ({ id: m.event_id, seq: m.seq })),
      );
      windows.set(group, []);
      await cool(group, at);
    }
    await state.saveWindows(q, rule.id, groups, [...windows.values()].flat());
  }
  // The batch's alert.fired events in one append: the chain's head is locked once, not per firing.
  const team = rules[0]?.team_slug;
  if (team && logged.length) await recordHubEvents(q, team, logged);
  return fired;
}
