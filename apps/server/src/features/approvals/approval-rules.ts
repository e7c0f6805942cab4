// Who may see and decide an approval request, and the room's answers: its rules, apart from the service that runs them.
import { APPROVAL_ACTIONS, type ApprovalAction, type ApprovalActionInfo, type Scope } from '@latchkey/contracts';
import { AppError } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import type { RequestRow } from './approvals.repository.ts';

/** A team administrator as the admins room lists them: who could approve. */
export interface TeamAdmin {
  user_id: string;
  email: string;
  name: string;
  scopes: Scope[];
}

export const EXPIRY_QUEUE = 'approval-expiry';
export const APPLY_QUEUE = 'approval-apply';

export const infoOf = (action: ApprovalAction): ApprovalActionInfo => APPROVAL_ACTIONS[action];
export const holdsScope = (scopes: readonly Scope[], action: ApprovalAction) =>
  scopes.some((s) => infoOf(action).approverScopes.includes(s));

/** Distinct people (by user id: sessions and scopes do not multiply a person) who could approve `action` for someone else. */
export function eligibleApprovers(admins: TeamAdmin[], action: ApprovalAction, requesterId: string | null): TeamAdmin[] {
  const seen = new Set<string>();
  return admins.filter((a) => {
    if (a.user_id === requesterId || seen.has(a.user_id) || !holdsScope(a.scopes, action)) return false;
    seen.add(a.user_id);
    return true;
  });
}

/** What a caller may see: their own requests, and those of the classes they could approve (an admin never sees a super admin's). */
export const visibleTo = (caller: Caller) => ({
  actions: (Object.keys(APPROVAL_ACTIONS) as ApprovalAction[]).filter((a) => holdsScope(caller.scopes, a)),
  or: caller.userId,
});
export const sees = (caller: Caller, row: RequestRow) =>
  row.requester_id === caller.userId || holdsScope(caller.scopes, row.action);

export const notFound = () => new AppError('approval_not_found', 'No such approval request.').shows('errors.approval_not_found');
export const closed = (row: RequestRow) =>
  new AppError('approval_closed', `This request is ${row.status}: it can no longer be decided.`).shows('errors.approval_closed', {
    status: row.status,
  });

/** The 202 answer of a gated call: nothing changed, the request waits. */
export function approvalRequired(row: RequestRow): AppError {
  const error = new AppError(
    'approval_required',
    `This change needs approval by another administrator: request ${row.id} waits until ${row.expires_at.toISOString()}. Nothing has changed yet.`,
  ).shows('errors.approval_required', { requested_at: row.created_at.toISOString() });
  error.requestId = row.id;
  return error;
}
