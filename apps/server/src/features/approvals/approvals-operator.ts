import type { Db, Jobs, Queryable } from '@latchkey/runtime';
import { recordApprovalEvent } from './approval-notices.ts';
import { APPLY_QUEUE, closed, notFound } from './approval-rules.ts';
import { approvalsRepository as repo } from './approvals.repository.ts';

/**
 * The operator's break-glass at the server's command line (trusted with the whole server):
 * approve a request whatever its approvals (the server's workers then run it), or clear it.
 * Each with a reason, in the team's event log. Needs no knowledge of how actions run.
 */
export function createApprovalsOperator(db: Db, jobs: Jobs) {
  const applyQueue = jobs.define<{ requestId: string }>(APPLY_QUEUE, async () => {});
  const open = async (tx: Queryable, teamId: string, id: string) => {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw notFound();
    const row = await repo.lock(tx, id);
    if (!row || row.team_id !== teamId) throw notFound();
    if (row.status !== 'pending' && row.status !== 'approved') throw closed(row);
    return row;
  };
  const operator = { email: 'operator', type: 'system' as const };
  return {
    async pending(teamId: string) {
      return (await repo.pending(db, teamId)).map((r) => ({
        id: r.id,
        action: r.action,
        requester: r.requester_email,
        summary: r.summary,
        expires_at: r.expires_at.toISOString(),
      }));
    },
    async approve(teamId: string, id: string, reason: string) {
      return db.transaction(async (tx) => {
        const row = await open(tx, teamId, id);
        await repo.decide(tx, {
          requestId: row.id,
          userId: null,
          email: 'operator',
          name: 'Operator',
          decision: 'approved',
          comment: reason,
          operator: true,
        });
        await recordApprovalEvent(tx, row, 'approval_operator_approved', operator, { reason });
        await repo.markApproved(tx, row.id);
        if (row.apply === 'on_approval') await applyQueue.enqueue(tx, { requestId: row.id }, { key: `apply:${row.id}` });
        return row;
      });
    },
    async clear(teamId: string, id: string, reason: string) {
      return db.transaction(async (tx) => {
        const row = await open(tx, teamId, id);
        await repo.close(tx, row.id, ['pending', 'approved'], 'rejected', `Cleared by the operator: ${reason}`);
        await recordApprovalEvent(tx, row, 'approval_operator_cleared', operator, { reason });
        return row;
      });
    },
  };
}

export type ApprovalsOperator = ReturnType<typeof createApprovalsOperator>;
