import type { Queryable } from '@latchkey/runtime';
import { recordEvent } from '../eventlogs/index.ts';
import { policiesRepository as repo } from './policies.repository.ts';

/**
 * A policy change, in the change's transaction: its history row and the team's event log entry (by
 * whom, on the team or which group). A change that relaxes a rule for someone (`relaxed`: the keys,
 * as the approvals gate tells them) also writes `policy.relaxed`, what the alert template watches:
 * an event-log filter matches codes, not detail fields.
 */
export async function addPolicyHistory(
  q: Queryable,
  row: Parameters<typeof repo.addHistory>[1],
  relaxed: readonly string[] = [],
): Promise<string> {
  const id = await repo.addHistory(q, row);
  await recordEvent(q, {
    teamId: row.team_id,
    actor: row.actor_email,
    activity: row.scope === 'team' ? `policy.team_${row.action}d` : `policy.group_${row.action}d`,
    component: 'policies',
    target: row.group_name ?? 'team',
    detail: { history_id: id ?? '', ...(row.restored_from ? { restored_from: row.restored_from } : {}) },
  });
  if (relaxed.length > 0)
    await recordEvent(q, {
      teamId: row.team_id,
      actor: row.actor_email,
      activity: 'policy.relaxed',
      component: 'policies',
      target: row.group_name ?? 'team',
      detail: { history_id: id ?? '', scope: row.scope, keys: relaxed.join(',') },
    });
  return id;
}
