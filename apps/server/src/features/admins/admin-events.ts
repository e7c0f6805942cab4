import type { Queryable } from '@latchkey/runtime';
import { recordAction } from '../eventlogs/index.ts';
import { adminsRepository as repo } from './admins.repository.ts';

/**
 * A change to the team's administrators, in the caller's transaction: its security_events row and
 * the team's event log, by the admin `actorId` (null: the system or the operator), to `email`.
 */
export async function recordAdminEvent(
  q: Queryable,
  teamId: string,
  actorId: string | null,
  kind: string,
  email: string,
  detail: object,
): Promise<void> {
  await repo.insertSecurityEvent(q, teamId, actorId, kind, email, detail);
  await recordAction(q, { teamId, actorId, action: kind, targets: [email], detail });
}
