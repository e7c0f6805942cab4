import { createHash } from 'node:crypto';

/**
 * The hash chain of a team's events (tamper evidence). Each event's `hash` is
 * `sha256("latchkey-event-v1\n" + canonical)` in lowercase hex, where `canonical` is the JSON array
 * `[team_slug, seq, id, actor, actor_type, activity, component, target, ip, device, occurred_at,
 * recorded_at, outcome, detail, prev_hash]` — times as ISO 8601 UTC with milliseconds, `detail`
 * with its keys sorted at every level — and `prev_hash` is the hash of the team's event `seq - 1`
 * (GENESIS for the first). Anyone holding an export can re-compute it (docs/security.md).
 */
export const GENESIS_HASH = '0'.repeat(64);

export interface ChainedFields {
  team_slug: string;
  seq: number;
  id: string;
  actor: string;
  actor_type: string;
  activity: string;
  component: string;
  target: string;
  ip: string;
  device: string;
  occurred_at: string;
  recorded_at: string;
  outcome: string;
  detail: Record<string, unknown>;
  prev_hash: string;
}

/** JSON with object keys sorted at every level: one text for one value, whatever the storage did to key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const q = JSON.stringify;

/** An event's fields that do not depend on its place in the chain. */
export type UnchainedFields = Omit<ChainedFields, 'team_slug' | 'seq' | 'recorded_at' | 'prev_hash'>;

/**
 * The canonical text of an event's unchained fields, in its two runs (between seq and recorded_at,
 * and between recorded_at and prev_hash): strings and integers are their JSON, so this is the text
 * `canonicalJson([...])` gives, without walking the fixed part generically. Made before the team's
 * chain head is locked: what runs under the lock bounds the ingest rate.
 */
export function unchainedText(e: UnchainedFields): { middle: string; end: string } {
  return {
    middle: `${q(e.id)},${q(e.actor)},${q(e.actor_type)},${q(e.activity)},${q(e.component)},${q(e.target)},${q(e.ip)},${q(
      e.device,
    )},${q(e.occurred_at)}`,
    end: `${q(e.outcome)},${canonicalJson(e.detail)}`,
  };
}

/** The hash of an event given its unchained text and its place: what runs per event under the lock. */
export function chainedHash(
  teamSlug: string,
  seq: number,
  text: { middle: string; end: string },
  recordedAt: string,
  prevHash: string,
): string {
  return createHash('sha256')
    .update(`latchkey-event-v1\n[${q(teamSlug)},${seq},${text.middle},${q(recordedAt)},${text.end},${q(prevHash)}]`)
    .digest('hex');
}

export function eventHash(e: ChainedFields): string {
  return chainedHash(e.team_slug, e.seq, unchainedText(e), e.recorded_at, e.prev_hash);
}

export type ChainProblem = { seq: number; kind: 'hash' | 'link' | 'gap' };

/**
 * Walks rows in seq order from `expectedPrev` (the hash the first row must follow) and reports the
 * first break: a row whose hash is not its content's (changed), whose prev_hash is not the previous
 * row's hash (inserted or replaced), or a missing seq (deleted).
 */
export function checkChain(
  rows: readonly ChainedFields[] & readonly { hash: string }[],
  start: { seq: number; prevHash: string },
): { problem: ChainProblem | null; last: { seq: number; hash: string } } {
  let expectedSeq = start.seq;
  let prev = start.prevHash;
  for (const row of rows as (ChainedFields & { hash: string })[]) {
    if (row.seq !== expectedSeq)
      return { problem: { seq: expectedSeq, kind: 'gap' }, last: { seq: expectedSeq - 1, hash: prev } };
    if (row.prev_hash !== prev) return { problem: { seq: row.seq, kind: 'link' }, last: { seq: expectedSeq - 1, hash: prev } };
    if (eventHash(row) !== row.hash)
      return { problem: { seq: row.seq, kind: 'hash' }, last: { seq: expectedSeq - 1, hash: prev } };
    prev = row.hash;
    expectedSeq++;
  }
  return { problem: null, last: { seq: expectedSeq - 1, hash: prev } };
}
