import type { Db, Mailer } from '@latchkey/runtime';
import type { FastifyBaseLogger } from 'fastify';
import { type RequestRow, recoveryRepository as repo } from './recovery.repository.ts';

export interface RecoveryNotifier {
  /** Emails the team's configured recipients; never throws (a mail outage must not fail the app). */
  requestOpened(teamSlug: string, request: RequestRow): Promise<void>;
}

/** The mail names who asked and when, and where to act: nothing a reader could recover with. */
export function recoveryRequestMail(request: RequestRow, consoleUrl: string) {
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

export function createRecoveryNotifier(db: Db, mailer: Mailer, log: FastifyBaseLogger, consoleUrl: string): RecoveryNotifier {
  return {
    async requestOpened(teamSlug, request) {
      try {
        const recipients = await repo.notificationRecipients(db, teamSlug);
        const mail = recoveryRequestMail(request, consoleUrl);
        const results = await Promise.allSettled(recipients.map((to) => mailer.send({ to, ...mail })));
        results.forEach((r, i) => {
          if (r.status === 'rejected') log.warn({ err: r.reason, to: recipients[i] }, 'recovery notification not sent');
        });
      } catch (err) {
        log.warn({ err }, 'recovery notification not sent');
      }
    },
  };
}
