import { createHash } from 'node:crypto';
import type { OwnHubEvent } from './record-events.ts';
import type { verifyChain } from './verify.service.ts';

type Verification = Awaited<ReturnType<typeof verifyChain>>;

/**
 * The event a verification that found problems writes (what the "chain verification failed" alert
 * template watches). Its id is made from the team and the findings, and the log stores an id once:
 * verifying the same broken chain again, or the same chain grown since, writes nothing new, while a
 * new break does.
 */
/** `actor`: the admin who asked, or `system` (the Hub's command line). */
export function verificationFailedEvent(teamSlug: string, actor: string, result: Verification): OwnHubEvent {
  const findings = JSON.stringify([teamSlug, result.problem_count, result.problems.map((p) => [p.seq, p.kind])]);
  const h = createHash('sha256').update(`event_logs.verification_failed\n${findings}`).digest('hex');
  return {
    // A UUID in form (version 8: made from a hash), as the log's ids are.
    id: `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`,
    actor,
    actor_type: actor === 'system' ? 'system' : 'admin',
    activity: 'event_logs.verification_failed',
    component: 'event_logs',
    outcome: 'failure',
    detail: { problem_count: result.problem_count, first_seq: result.first_seq ?? 0, last_seq: result.last_seq ?? 0 },
  };
}
