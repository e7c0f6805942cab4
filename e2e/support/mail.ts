import { MAILBOX_URL } from './env.ts';

/** A message the server delivered to the suite's SMTP mailbox. */
export interface MailMessage {
  id: number;
  to: string[];
  from: string;
  subject: string;
  text: string;
  receivedAt: string;
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`mailbox: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Messages to an address, oldest first; only those after message `after` when given. */
export async function messagesTo(email: string, after = 0): Promise<MailMessage[]> {
  const query = new URLSearchParams({ to: email.toLowerCase(), after: String(after) });
  return json<MailMessage[]>(await fetch(`${MAILBOX_URL}/messages?${query}`));
}

/** The id of the newest message so far: pass it as `after` to wait for the next one. */
export async function mailCursor(): Promise<number> {
  return (await json<{ last: number }>(await fetch(`${MAILBOX_URL}/cursor`))).last;
}

const CODE = /\b(\d{6})\b/;

/**
 * The six-digit sign-in code in the newest message to `email` (after message `after`), polling
 * until it arrives.
 */
export async function latestCode(email: string, { after = 0, timeoutMs = 10_000 } = {}): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const newest = (await messagesTo(email, after)).at(-1);
    const code = newest && (CODE.exec(newest.text)?.[1] ?? CODE.exec(newest.subject)?.[1]);
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no sign-in code for ${email} in the mailbox after message ${after}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs `fn` while no other test (in any worker) signs in as `email`: only the newest code is
 * valid, so two sign-ins of one person at once would spend each other's codes.
 */
export async function withMailLock<T>(email: string, fn: () => Promise<T>): Promise<T> {
  const key = encodeURIComponent(email.toLowerCase());
  await json(await fetch(`${MAILBOX_URL}/lock?key=${key}`, { method: 'POST' }));
  try {
    return await fn();
  } finally {
    await fetch(`${MAILBOX_URL}/lock?key=${key}`, { method: 'DELETE' });
  }
}
