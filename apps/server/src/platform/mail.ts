// The mailer and the mail outbox are shared with the Hub (its recovery notifications); callers here keep this path.
export { createMailer, defineMailOutbox, type Mail, type Mailer, type MailOutbox } from '@latchkey/runtime';
