import { createServer as createTcpServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { LeefError, parseLeef } from './leef-parser.ts';
import { faultControl, listen, newReceiver, type Receiver, serve, slowness, type Tls } from './siem-listen.ts';

/**
 * IBM QRadar's two ways in, as IBM documents them, each reading every event with the strict LEEF
 * reader (leef-parser.ts):
 *
 * - the TLS Syslog and TCP Syslog protocols: RFC 5425 / RFC 6587 octet-counted frames
 *   (`MSG-LEN SP SYSLOG-MSG`, MSG-LEN without a leading zero); an event over the Max Payload
 *   Length (8192 bytes) would be cut, so it is refused here; a frame cut short by the end of the
 *   connection is refused; the collector reads until the sender ends, then closes its side;
 * - the HTTP Receiver protocol ("HTTP Receiver protocol configuration options"): HTTPS, POST only;
 *   the request body is split into events where the log source's Message Pattern matches (here
 *   `<110>1 ` at a line start), each at most the Max Payload Length.
 *
 * Every event must carry the log source identifier as its syslog HOSTNAME and an `eventId`.
 */
export const QRADAR_SOURCE = 'latchkey-hub-test';
export const MAX_PAYLOAD = 8192;
/** The Message Pattern the log source is set up with (docs/siem.md): where each event of a POST starts. */
const MESSAGE_PATTERN = /^<110>1 /m;

export type QradarReceiver = Receiver & {
  /** Every event line taken, as written. */
  lines: string[];
};

/** Takes one event line: checks it, keeps its eventId (and answers it); a problem is a refusal. */
function take(r: QradarReceiver, line: string): string | null {
  try {
    const leef = parseLeef(line);
    if (leef.syslog?.hostname !== QRADAR_SOURCE)
      throw new LeefError(`log source ${leef.syslog?.hostname} is not ${QRADAR_SOURCE}`);
    if (leef.vendor !== 'Latchkey' || leef.product !== 'Hub') throw new LeefError('not a Latchkey event');
    const id = leef.attributes.eventId ?? '';
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new LeefError('no eventId');
    r.received.push(id);
    r.lines.push(line);
    return id;
  } catch (error) {
    r.rejected.push(`${error instanceof Error ? error.message : String(error)}: ${line.slice(0, 200)}`);
    return null;
  }
}

/** Under `drop`, the collector takes this many events of a connection, then drops it. */
const DROP_AFTER = 25;

/**
 * QRadar's TLS Syslog (with `tls`) or TCP Syslog listener. Syslog has no answers: 429 and 503 do
 * not exist here (a connection refused stands for them); what a connection carried counts as
 * confirmed only when the sender ended it cleanly and no fault was played on it.
 */
export async function qradarSyslogReceiver(tls: Tls | null, port = 0): Promise<QradarReceiver> {
  const r: QradarReceiver = { ...newReceiver(), lines: [] };
  const slow = slowness();
  const onConnection = (socket: Socket) => {
    const fault = r.fault ?? (r.down ? 'unavailable' : null);
    socket.on('error', () => undefined);
    if (fault === 'unavailable' || fault === 'too_many_requests') return socket.destroy();
    r.requests++;
    const taken: string[] = [];
    let buf = Buffer.alloc(0);
    // A collector stuck: it reads nothing for a while, then everything (the sender has given up by then).
    if (fault === 'slow') {
      socket.pause();
      void slow.hold().then(() => socket.resume());
    }
    socket.on('data', (chunk: Buffer) => {
      if (socket.destroyed) return;
      // Reset while the batch arrives: unread data makes the close a reset; nothing taken.
      if (fault === 'reset') {
        socket.pause();
        return socket.destroy();
      }
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const space = buf.indexOf(0x20);
        if (space < 0) break;
        const len = buf.subarray(0, space).toString();
        if (!/^[1-9]\d{0,8}$/.test(len)) {
          r.rejected.push(`not an octet-counted frame: ${buf.subarray(0, 40).toString()}`);
          return socket.destroy();
        }
        const size = Number(len);
        if (buf.length < space + 1 + size) break;
        const msg = buf.subarray(space + 1, space + 1 + size);
        buf = buf.subarray(space + 1 + size);
        if (size > MAX_PAYLOAD) r.rejected.push(`an event of ${size} bytes is over the Max Payload Length`);
        else {
          const id = take(r, msg.toString('utf8'));
          if (id) taken.push(id);
        }
        // Accepted, some events taken, then dropped: what was not read yet is lost to the collector.
        if (fault === 'drop' && taken.length >= DROP_AFTER) {
          socket.pause();
          return socket.destroy();
        }
      }
    });
    socket.on('end', () => {
      if (buf.length) r.rejected.push(`a frame cut short: ${buf.subarray(0, 40).toString()}`);
      else if (!fault) {
        r.confirmed.push(...taken);
        r.onConfirmed?.(taken);
      }
    });
  };
  const server = tls ? createTlsServer(tls, onConnection) : createTcpServer(onConnection);
  r.setFault = slow.wrap(faultControl(server, r, tls));
  await serve(server, r, port, tls ? 'tls' : 'tcp');
  return r;
}

/** QRadar's HTTP Receiver log source, communication type HTTPS. */
export async function qradarHttpReceiver(tls: Tls, port = 0): Promise<QradarReceiver> {
  const lines: string[] = [];
  const r = await listen(
    tls,
    (req, body, rec) => {
      if (req.method !== 'POST') return { status: 405, body: null };
      const text = body.toString('utf8');
      const starts = [...text.matchAll(new RegExp(MESSAGE_PATTERN, 'gm'))].map((m) => m.index ?? 0);
      if (!starts.length || starts[0] !== 0) {
        rec.rejected.push(`the POST does not start with the Message Pattern: ${text.slice(0, 80)}`);
        return { status: 200, body: null };
      }
      for (const [i, start] of starts.entries()) {
        const event = text.slice(start, starts[i + 1] ?? text.length).replace(/\n$/, '');
        if (Buffer.byteLength(event) > MAX_PAYLOAD)
          rec.rejected.push(`an event of ${Buffer.byteLength(event)} bytes is over the Max Payload Length`);
        else take(out, event);
      }
      return { status: 200, body: null };
    },
    port,
    { unavailable: { status: 503, body: null }, tooManyRequests: { status: 429, body: null } },
  );
  const out = Object.assign(r, { lines });
  return out;
}
