// One load run, for the API benches: closed loop at `concurrency`, or open loop at `rate` requests a
// second. In a worker thread of its own it posts {latenciesMs, errors, seconds}; `run` answers them
// to a caller in the same thread.
//
// A bare HTTP/1.1 client on keep-alive sockets, as wrk is: each request is bytes made once, each
// reply is read only for its status and length. Node's http client cost as much CPU as the server
// it measured, on the same two cores.
import net from 'node:net';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

const HEADER_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection with at most one request in flight. */
function connection(target, onReply) {
  const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
  let buffered = Buffer.alloc(0);
  let bodyLeft = -1;
  let status = 0;
  socket.on('data', (chunk) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    for (;;) {
      if (bodyLeft < 0) {
        const end = buffered.indexOf(HEADER_END);
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        status = Number(head.slice(9, 12));
        bodyLeft = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        buffered = buffered.subarray(end + 4);
      }
      if (buffered.length < bodyLeft) return;
      buffered = buffered.subarray(bodyLeft);
      bodyLeft = -1;
      onReply(status);
    }
  });
  return socket;
}

export async function run(job) {
  const target = new URL(job.url);
  const requests = job.bodies.map((body, i) =>
    Buffer.from(
      `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\n` +
        `Authorization: Bearer ${job.tokens?.[i] ?? job.token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    ),
  );
  // With `once`, each request is sent once and the run ends when all are answered.
  const more = () => performance.now() < deadline && !(job.once && sent >= requests.length);
  const latencies = [];
  let errors = 0;
  let sent = 0;
  let outstanding = 0;
  let drained = () => {};
  const idle = [];
  // Requests waiting for a free connection, each with the time it was due.
  const waiting = [];

  const send = (conn, due) => {
    conn.due = due;
    conn.busy = true;
    conn.socket.write(requests[sent++ % requests.length]);
  };
  const open = () => {
    const conn = { due: 0, busy: false, socket: null };
    conn.socket = connection(target, (status) => {
      if (status === 200) latencies.push(performance.now() - conn.due);
      else errors++;
      conn.busy = false;
      outstanding--;
      if (waiting.length) send(conn, waiting.shift());
      else if (job.rate) idle.push(conn);
      else if (more()) {
        outstanding++;
        send(conn, performance.now());
      }
      if (outstanding === 0) drained();
    });
    // A connection lost mid-request is an error, not a request waited for forever.
    conn.socket.on('error', () => {});
    conn.socket.on('close', () => {
      if (!conn.busy) return;
      conn.busy = false;
      errors++;
      outstanding--;
      if (outstanding === 0) drained();
    });
    return conn;
  };
  const conns = Array.from({ length: job.concurrency }, open);
  await Promise.all(conns.map((c) => new Promise((r) => c.socket.once('connect', r))));

  const started = performance.now();
  const deadline = started + job.seconds * 1000;
  const done = new Promise((r) => {
    drained = r;
  });
  if (job.rate) {
    // Open loop: requests fall due on schedule whatever the replies do, and each is timed from when
    // it was due, so a slow reply delays the measurement of those behind it (no coordinated omission).
    idle.push(...conns);
    const interval = 1000 / job.rate;
    for (let n = 0; ; n++) {
      const at = started + n * interval;
      if (at >= deadline) break;
      const wait = at - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      outstanding++;
      // Timers wake up to a millisecond early: a request sent before it was due is timed from its sending.
      const due = Math.min(at, performance.now());
      const conn = idle.pop();
      if (conn) send(conn, due);
      else waiting.push(due);
    }
  } else {
    for (const conn of conns) {
      if (!more()) break;
      outstanding++;
      send(conn, performance.now());
    }
  }
  if (outstanding > 0) await done;
  const seconds = (performance.now() - started) / 1000;
  for (const conn of conns) conn.socket.destroy();
  return { latenciesMs: latencies, errors, seconds };
}

if (!isMainThread) run(workerData).then((result) => parentPort.postMessage(result));
