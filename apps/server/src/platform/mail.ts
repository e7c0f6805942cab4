// The mailer is shared with the Hub (its recovery notifications); callers here keep this path.
export { createMailer, type Mail, type Mailer } from '@latchkey/runtime';
