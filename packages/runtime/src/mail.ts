import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Real SMTP delivery through nodemailer when `smtpUrl` is set. Without it (the embedded demo),
 * mail is written to the server log so the demo's sign-in codes can be read there.
 */
export function createMailer(options: { smtpUrl?: string | undefined; from: string; log: FastifyBaseLogger }): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(mail) {
        options.log.info(
          { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
          `mail to ${mail.to}: ${mail.subject}`,
        );
      },
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: options.from, ...mail });
    },
  };
}
