// A real SMTP receiver for the end-to-end suite: the server sends its sign-in codes here, the tests
// read them over HTTP. Messages live in memory only.
//
//   SMTP  127.0.0.1:$MAILBOX_SMTP_PORT (2525): no auth, no STARTTLS
//   HTTP  127.0.0.1:$MAILBOX_HTTP_PORT (2526):
//     GET    /messages?to=<email>&after=<id>  → [{ id, to, from, subject, text, receivedAt }], oldest first
//     DELETE /messages                        → removes every message
//     POST   /lock?key=<k>                    → waits until <k> is free, then holds it (max 60 s)
//     DELETE /lock?key=<k>                    → frees <k>
//     GET    /readyz
import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';

const SMTP_PORT = Number(process.env.MAILBOX_SMTP_PORT ?? 2525);
const HTTP_PORT = Number(process.env.MAILBOX_HTTP_PORT ?? 2526);
const HOST = '127.0.0.1';
const LOCK_TTL_MS = 60_000;

/** @type {{ id: number, to: string[], from: string, subject: string, text: string, receivedAt: string }[]} */
let messages = [];
let nextId = 1;

/** Header name (lower case) → unfolded value. */
function parseHeaders(block) {
  const headers = new Map();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** RFC 2047 encoded words (=?utf-8?Q?…?= / =?utf-8?B?…?=), as nodemailer writes non-ASCII subjects. */
function decodeWords(value) {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_, _charset, kind, data) =>
    kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(text) {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The text of a single-part plain text message (what the server sends). */
function parseMessage(raw) {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  let body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = parseHeaders(head);
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
  else if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return {
    from: decodeWords(headers.get('from') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    text: body.replace(/\r\n/g, '\n').trim(),
  };
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  banner: 'Latchkey e2e mailbox',
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      const parsed = parseMessage(Buffer.concat(chunks).toString('utf8'));
      messages.push({
        id: nextId++,
        to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
        ...parsed,
        receivedAt: new Date().toISOString(),
      });
      callback();
    });
    stream.on('error', callback);
  },
});
/**
 * A port that cannot be had ends the mailbox at once: started beside another process on it, the
 * programs would mail their codes there and every spec would wait for a code in vain.
 */
function refuse(what, port, error) {
  console.error(
    error.code === 'EADDRINUSE'
      ? `mailbox: ${HOST}:${port} (${what}) is in use by another process. Stop it, or move the suite's ports with E2E_PORT_BASE.`
      : `mailbox: cannot listen on ${HOST}:${port} (${what}): ${error.message}`,
  );
  process.exit(1);
}

let smtpListening = false;
smtp.on('error', (error) => {
  if (!smtpListening) refuse('SMTP', SMTP_PORT, error);
  console.error('mailbox smtp:', error.message);
});

/** Cross-worker locks, so two tests never wait for the same person's code at once. */
const locks = new Map(); // key → { until, waiters: (() => void)[] }

function acquire(key) {
  const now = Date.now();
  const held = locks.get(key);
  if (!held || held.until <= now) {
    locks.set(key, { until: now + LOCK_TTL_MS, waiters: held?.waiters ?? [] });
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    held.waiters.push(resolve);
    // A holder that never releases loses the lock when it expires.
    setTimeout(() => resolve(undefined), held.until - now + 10);
  }).then(() => acquire(key));
}

function release(key) {
  const held = locks.get(key);
  if (!held) return;
  locks.delete(key);
  for (const wake of held.waiters.splice(0)) wake();
}

function reply(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

const http = createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://${HOST}:${HTTP_PORT}`);
  if (url.pathname === '/readyz') return reply(res, 200, { status: 'ready', smtpPort: SMTP_PORT });
  if (url.pathname === '/messages' && req.method === 'GET') {
    const to = url.searchParams.get('to')?.toLowerCase();
    const after = Number(url.searchParams.get('after') ?? 0);
    return reply(
      res,
      200,
      messages.filter((m) => m.id > after && (!to || m.to.includes(to))),
    );
  }
  if (url.pathname === '/messages' && req.method === 'DELETE') {
    messages = [];
    return reply(res, 200, { deleted: true });
  }
  if (url.pathname === '/cursor' && req.method === 'GET') return reply(res, 200, { last: nextId - 1 });
  const key = url.searchParams.get('key');
  if (url.pathname === '/lock' && key && req.method === 'POST') {
    acquire(key).then(() => reply(res, 200, { locked: key }));
    return;
  }
  if (url.pathname === '/lock' && key && req.method === 'DELETE') {
    release(key);
    return reply(res, 200, { released: key });
  }
  reply(res, 404, { error: 'not found' });
});
http.on('error', (error) => refuse('HTTP', HTTP_PORT, error));
// HTTP (and so /readyz) only once SMTP listens: ready means mail can be received.
smtp.listen(SMTP_PORT, HOST, () => {
  smtpListening = true;
  http.listen(HTTP_PORT, HOST, () => console.info(`mailbox: smtp ${HOST}:${SMTP_PORT}, http ${HOST}:${HTTP_PORT}`));
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    http.close();
    smtp.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 500).unref();
  });
}
