import type { ActionName } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { recordAction, storeSecurityEvent } from '../eventlogs/index.ts';

/**
 * A change to the team's administrators, in the caller's transaction: its security_events row and
 * the team's event log, by the admin `actorId` (null: the system or the operator), to `email`.
 */
export async function recordAdminEvent(
  q: Queryable,
  teamId: string,
  actorId: string | null,
  kind: ActionName & `admin_${string}`,
  email: string,
  detail: object,
): Promise<void> {
  await storeSecurityEvent(q, { kind, email, userId: actorId ?? undefined, teamId, detail });
  await recordAction(q, { teamId, actorId, action: kind, targets: [email], detail });
}
