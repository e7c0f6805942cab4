import type { Queryable } from '@latchkey/runtime';
import { recordEvent } from '../eventlogs/index.ts';
import { policiesRepository as repo } from './policies.repository.ts';

/** A policy change, in the change's transaction: its history row and the team's event log entry (by whom, on the team or which group). */
export async function addPolicyHistory(q: Queryable, row: Parameters<typeof repo.addHistory>[1]): Promise<string> {
  const id = await repo.addHistory(q, row);
  await recordEvent(q, {
    teamId: row.team_id,
    actor: row.actor_email,
    activity: row.scope === 'team' ? `policy.team_${row.action}d` : `policy.group_${row.action}d`,
    component: 'policies',
    target: row.group_name ?? 'team',
    detail: { history_id: id ?? '', ...(row.restored_from ? { restored_from: row.restored_from } : {}) },
  });
  return id;
}
