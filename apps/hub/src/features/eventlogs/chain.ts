import { createHash } from 'node:crypto';
import type { ChainProblemKind } from '@latchkey/contracts';
import type { StoredEvent } from './event-rows.ts';

/**
 * The hash chain of a team's events (tamper evidence). Each event's `hash` is
 * `sha256("latchkey-event-v1\n" + canonical)` in lowercase hex, where `canonical` is the JSON array
 * `[team_slug, seq, id, actor, actor_type, activity, component, target, ip, device, occurred_at,
 * recorded_at, outcome, detail, prev_hash]` — times as ISO 8601 UTC with milliseconds, `detail`
 * with its keys sorted at every level — and `prev_hash` is the hash of the team's event `seq - 1`
 * (GENESIS for the first). Anyone holding an export can re-compute it (docs/security.md).
 */
export const GENESIS_HASH = '0'.repeat(64);

/** What the hash covers: the stored event but its own hash, its kinds as any text (a verifier hashes what an export holds). */
type ChainedFields = Omit<StoredEvent, 'hash' | 'actor_type' | 'outcome'> & { actor_type: string; outcome: string };

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
type UnchainedFields = Omit<ChainedFields, 'team_slug' | 'seq' | 'recorded_at' | 'prev_hash'>;

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

export type ChainProblem = { seq: number; kind: ChainProblemKind };

/**
 * Walks rows in seq order from `start` (the first seq expected and the hash it must follow, null
 * when that is unknown: the row before the range is gone) and
 * reports every break, not only the first, so one broken event never hides tampering after it:
 * a missing run of seqs (deleted) as one `gap` at its first seq; a row whose prev_hash is not the
 * previous row's hash (inserted or replaced) as `link`; a row whose hash is not its content's
 * (changed) as `hash`. After a break the walk follows the stored hashes, so a changed row is one
 * problem, not a cascade. Returns where the next batch goes on: its first seq and the hash it follows.
 */
export function checkChain(
  rows: readonly ChainedFields[] & readonly { hash: string }[],
  start: { seq: number; prevHash: string | null },
): { problems: ChainProblem[]; next: { seq: number; prevHash: string | null } } {
  const problems: ChainProblem[] = [];
  let expectedSeq = start.seq;
  let prev: string | null = start.prevHash;
  for (const row of rows as (ChainedFields & { hash: string })[]) {
    if (row.seq !== expectedSeq) {
      problems.push({ seq: expectedSeq, kind: 'gap' });
      // What the row after a gap follows is unknown: only its own hash can be checked.
      prev = null;
    }
    if (prev !== null && row.prev_hash !== prev) problems.push({ seq: row.seq, kind: 'link' });
    if (eventHash(row) !== row.hash) problems.push({ seq: row.seq, kind: 'hash' });
    prev = row.hash;
    expectedSeq = row.seq + 1;
  }
  return { problems, next: { seq: expectedSeq, prevHash: prev } };
}
