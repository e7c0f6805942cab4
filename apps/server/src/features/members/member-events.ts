import type { ActionName } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { recordAction, recordActions } from '../eventlogs/index.ts';
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

/** Many changes by one actor in two statements, as `recordMemberEvents` records each (a directory sync's batch). */
export async function recordMemberEventsMany(
  q: Queryable,
  teamId: string,
  actorId: string | null,
  entries: readonly { action: ActionName; emails: string[]; detail: Record<string, unknown> }[],
): Promise<void> {
  const nonEmpty = entries.filter((e) => e.emails.length > 0);
  if (nonEmpty.length === 0) return;
  await repo.insertHistoryMany(q, teamId, actorId, nonEmpty);
  // The log names the group when there is one, else the emails (no admin acts on themselves here).
  await recordActions(
    q,
    teamId,
    actorId,
    nonEmpty.map((e) => ({
      action: e.action,
      targets: typeof e.detail.group === 'string' && e.detail.group ? [e.detail.group] : e.emails,
      detail: e.detail,
    })),
  );
}
