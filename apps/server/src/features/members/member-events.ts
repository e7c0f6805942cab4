import type { ActionName } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { recordAction } from '../eventlogs/index.ts';
import { membersRepository as repo } from './members.repository.ts';

/**
 * A change to members (or one the team's member history keeps: groups, logo, SCIM connectors,
 * family benefits), in the caller's transaction: a member_events row per email, and the team's
 * event log. The log names who it was done to: the emails, or the group (`detail.group`), or
 * nothing when admins act on themselves. `actorId` is the admin who acted; null when no admin did
 * (a SCIM connector: `detail.actor_type` says so).
 */
export async function recordMemberEvents(
  q: Queryable,
  teamId: string,
  actorId: string | null,
  action: ActionName,
  emails: string[],
  detail: Record<string, unknown> = {},
): Promise<void> {
  if (emails.length === 0) return;
  await repo.insertHistory(q, teamId, actorId, action, emails, detail);
  const group = typeof detail.group === 'string' ? detail.group : '';
  await recordAction(q, {
    teamId,
    actorId,
    action,
    detail,
    targets: (actor) => (group || (emails.length === 1 && emails[0] === actor) ? [group] : emails),
  });
}
