import type { ApprovalEvent } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import type { MailOutbox } from '../../platform/mail.ts';
import { fromAction, recordEvent } from '../eventlogs/index.ts';
import type { RequestRow } from './approvals.repository.ts';

/**
 * One step of a request in the team's event log (and so its Hub and SIEM), in the transaction
 * that made it: `actor` is the admin's email, or 'operator' / 'system'.
 */
export async function recordApprovalEvent(
  q: Queryable,
  row: Pick<RequestRow, 'id' | 'team_id' | 'action' | 'requester_email'>,
  event: ApprovalEvent,
  actor: { email: string; type: 'admin' | 'system' },
  detail: Record<string, string | number | boolean> = {},
): Promise<void> {
  await recordEvent(q, {
    teamId: row.team_id,
    actor: actor.email,
    actorType: actor.type,
    activity: fromAction(event).activity,
    component: 'approvals',
    target: row.requester_email,
    outcome: event === 'approval_apply_failed' ? 'failure' : 'success',
    detail: { request_id: row.id, action: row.action, ...detail },
  });
}

/**
 * Asks each person who could approve, through the mail queue (in the request's transaction: the
 * mails go if and only if the request exists). English, as every mail the server sends.
 */
export async function mailApprovers(
  q: Queryable,
  mail: MailOutbox,
  row: RequestRow,
  approvers: { user_id: string; email: string }[],
  teamName: string,
  consoleUrl: string | null,
): Promise<void> {
  const link = consoleUrl ? `\n\nReview it: ${consoleUrl}/#/settings/approvals?request=${row.id}` : '';
  for (const approver of approvers) {
    await mail.send(
      q,
      {
        to: approver.email,
        subject: `Approval needed in ${teamName}: ${row.action}`,
        text: `${row.requester_email} asks for your approval in ${teamName}:\n\n${row.summary}\n\nNothing changes until enough administrators approve. The request expires on ${row.expires_at.toISOString()}.${link}`,
      },
      `approval:${row.id}:${approver.user_id}`,
    );
  }
}
