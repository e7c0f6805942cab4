import { CHAIN_PROBLEMS_LISTED } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { type ChainProblem, checkChain, GENESIS_HASH } from './chain.ts';
import { eventsRepository as repo } from './eventlogs.repository.ts';

/** Rows re-hashed per read. */
const VERIFY_BATCH = 5_000;

/**
 * Re-computes the chain over [from, to] (default: all that retention left) and reports every
 * break in it (the first CHAIN_PROBLEMS_LISTED of them listed, all counted).
 */
export async function verifyChain(
  db: Db,
  teamSlug: string,
  range: { from_seq?: number | undefined; to_seq?: number | undefined } = {},
) {
  const head = await repo.head(db, teamSlug);
  const from = Math.max(range.from_seq ?? head.floor_seq, head.floor_seq);
  const to = Math.min(range.to_seq ?? head.seq, head.seq);
  if (head.seq === 0 || from > to)
    return {
      ok: true,
      checked: 0,
      first_seq: null,
      last_seq: null,
      head_hash: head.seq ? head.hash : null,
      problem: null,
      problems: [],
      problem_count: 0,
    };
  // The hash the first row must follow: the previous row's, or at the floor the anchor the first row names
  // (GENESIS at seq 1; after retention, the checkpoint event records it).
  let prevHash: string | null;
  if (from === 1) prevHash = GENESIS_HASH;
  else if (from === head.floor_seq) prevHash = (await repo.lowest(db, teamSlug))?.prev_hash ?? GENESIS_HASH;
  else prevHash = await repo.hashAt(db, teamSlug, from - 1);
  const problems: ChainProblem[] = [];
  let count = 0;
  const note = (found: readonly ChainProblem[]) => {
    count += found.length;
    problems.push(...found.slice(0, Math.max(0, CHAIN_PROBLEMS_LISTED - problems.length)));
  };
  let cursor: { seq: number; prevHash: string | null } = { seq: from, prevHash };
  let checked = 0;
  while (cursor.seq <= to) {
    const rows = await repo.range(db, teamSlug, cursor.seq, to, VERIFY_BATCH);
    if (!rows.length) {
      // Nothing left up to `to`: the rest was removed.
      note([{ seq: cursor.seq, kind: 'gap' }]);
      break;
    }
    const { problems: found, next } = checkChain(rows, cursor);
    note(found);
    checked += rows.length;
    cursor = next;
  }
  // The chain's end must be the head the Hub keeps: a replaced last row shows here.
  if (to === head.seq && cursor.seq === head.seq + 1 && cursor.prevHash !== head.hash) note([{ seq: head.seq, kind: 'link' }]);
  return {
    ok: count === 0,
    checked,
    first_seq: from,
    last_seq: to,
    head_hash: head.hash,
    problem: problems[0] ?? null,
    problems,
    problem_count: count,
  };
}
