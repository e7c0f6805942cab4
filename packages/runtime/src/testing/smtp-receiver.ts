import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface SmtpReceiver {
  url: string;
  /** Every message accepted, oldest first. */
  mail: ReceivedMail[];
  /** Messages to `email`, waiting up to `timeoutMs` for at least `count` of them. */
  waitFor(email: string, count?: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Refuses the next `count` messages with a temporary error (451), as a mail server in trouble does. */
  refuseNext(count: number): void;
  /** Messages refused so far. */
  readonly refused: number;
  close(): Promise<void>;
}

/** A real SMTP server on a free local port, for the server and Hub tests that read the mail sent. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mail: ReceivedMail[] = [];
  let toRefuse = 0;
  let refused = 0;
  const smtp = new SMTPServer({
    secure: false,
    authOptional: true,
    // No AUTH and no STARTTLS: nodemailer then sends in plain text to this local receiver.
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (toRefuse > 0) {
        toRefuse--;
        refused++;
        return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mail.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  const to = (email: string) => mail.filter((m) => m.to.includes(email));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mail,
    async waitFor(email, count = 1, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (to(email).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return to(email);
    },
    refuseNext(count) {
      toRefuse = count;
    },
    get refused() {
      return refused;
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
