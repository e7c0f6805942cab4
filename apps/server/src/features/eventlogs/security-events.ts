import type { SecurityKind } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { eventlogsRepository as repo } from './eventlogs.repository.ts';
import { plainDetail, recordEvent, type ServerEvent } from './record-event.ts';

export interface SecurityEvent {
  kind: string;
  email?: string | undefined;
  userId?: string | undefined;
  teamId?: string | undefined;
  ip?: string | undefined;
  /** By default a failure when the kind says so (`sign_in_failed`, `…_refused`). */
  outcome?: ServerEvent['outcome'];
  detail?: Record<string, unknown> | object;
}

/**
 * A row of the server's security history (security_events: sign-ins, their failures, sign-outs,
 * resets, account changes), in the caller's transaction; the team's event log gets the same.
 */
export async function recordSecurityEvent(q: Queryable, event: SecurityEvent & { kind: SecurityKind }): Promise<void> {
  await storeSecurityEvent(q, event);
  if (event.teamId) {
    await recordEvent(q, {
      teamId: event.teamId,
      actor: event.email ?? '',
      activity: `auth.${event.kind}`,
      component: 'auth',
      ip: event.ip,
      outcome: event.outcome ?? (/failed|refused/.test(event.kind) ? 'failure' : 'success'),
      detail: plainDetail(event.detail),
    });
  }
}

/** Only the security_events row, for a caller that records its own event-log entry (`recordAction`). */
export async function storeSecurityEvent(q: Queryable, event: SecurityEvent): Promise<void> {
  await repo.insertSecurityEvent(q, event);
}
