import type { Queryable } from './db.ts';
import type { JobDefinition, Jobs } from './job-types.ts';
import type { Mail, Mailer } from './mail.ts';

/** Mail sent through the job queue: enqueued with the domain write, delivered and retried in the background. */
export interface MailOutbox {
  /**
   * Queues one message in `q` (the caller's transaction, so it goes out if and only if the write
   * commits). `key` names the message (e.g. `sign-in-code:<code hash>`): the same key twice is one mail.
   */
  send(q: Queryable, mail: Mail, key: string): Promise<void>;
  /** Queues many messages in a few statements, each named by its key as `send`'s. */
  sendMany(q: Queryable, mails: readonly { mail: Mail; key: string }[]): Promise<void>;
}

/** Hides a job's payload in the database (the server seals mail: sign-in codes, reset links). */
export interface PayloadSealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

/**
 * SMTP servers refuse for a while (greylisting, outages): the first retry after 1–2 s, then
 * doubling, 12 in all over one to two hours; then the mail is dead (failed, counted at /metrics).
 */
export const MAIL_JOB: Partial<JobDefinition> = { retryLimit: 12, retryDelaySeconds: 1, expireInSeconds: 60 };

type MailJob = { sealed: string } | { mail: Mail };

/** Defines the `mail` queue (one job per message) on `jobs`, delivering through `mailer`. */
export function defineMailOutbox(
  jobs: Jobs,
  mailer: Mailer,
  options: { sealer?: PayloadSealer; definition?: Partial<JobDefinition> } = {},
): MailOutbox {
  const { sealer } = options;
  const queue = jobs.define<MailJob>(
    'mail',
    async (data) => {
      const mail: Mail = 'sealed' in data ? (JSON.parse(requireSealer(sealer).open(data.sealed)) as Mail) : data.mail;
      // A re-run after a crash may send a message twice; SMTP has no idempotency, and a duplicate
      // mail is better than a lost sign-in code.
      await mailer.send(mail);
    },
    { ...MAIL_JOB, ...options.definition },
  );
  const job = (mail: Mail): MailJob => (sealer ? { sealed: sealer.seal(JSON.stringify(mail)) } : { mail });
  return {
    async send(q, mail, key) {
      await queue.enqueue(q, job(mail), { key });
    },
    async sendMany(q, mails) {
      if (mails.length > 0)
        await queue.enqueueMany(
          q,
          mails.map(({ mail, key }) => ({ data: job(mail), key })),
        );
    },
  };
}

function requireSealer(sealer: PayloadSealer | undefined): PayloadSealer {
  if (!sealer) throw new Error('a sealed mail job, and no sealer to open it');
  return sealer;
}
