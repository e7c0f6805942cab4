import type { MailOutbox, Queryable } from '@latchkey/runtime';
import { type RequestRow, recoveryRepository as repo } from './recovery.repository.ts';

export interface RecoveryNotifier {
  /**
   * Queues a mail to each of the team's configured recipients in `q`, the transaction that opened
   * the request: the mail goes out if and only if the request exists, and a mail outage is retried
   * in the background instead of failing the app's call.
   */
  requestOpened(q: Queryable, teamSlug: string, request: RequestRow): Promise<void>;
}

/** The mail names who asked and when, and where to act: nothing a reader could recover with. */
function recoveryRequestMail(request: RequestRow, consoleUrl: string) {
  return {
    subject: `Account recovery requested by ${request.email}`,
    text: [
      `${request.email} asked to recover their Latchkey account on ${request.created_at.toISOString()}.`,
      '',
      `A recovery admin can approve or delete the request on the console's Recovery page: ${consoleUrl}/#/recovery`,
      '',
      'If you did not expect this request, check with the member before approving it.',
    ].join('\n'),
  };
}

export function createRecoveryNotifier(mail: MailOutbox, consoleUrl: string): RecoveryNotifier {
  return {
    async requestOpened(q, teamSlug, request) {
      const message = recoveryRequestMail(request, consoleUrl);
      for (const to of await repo.notificationRecipients(q, teamSlug)) {
        await mail.send(q, { to, ...message }, `recovery-request:${request.id}:${to}`);
      }
    },
  };
}
