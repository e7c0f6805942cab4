// One load run in its own thread (its own core), for scripts/bench-people.ts: closed loop at
// `concurrency`, or open loop at `rate` requests a second. Posts {latenciesMs, errors, seconds}.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

async function run(job) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
  const target = new URL(job.url);
  const latencies = [];
  let errors = 0;
  let i = 0;
  // `started` is when the request was due: a sender that falls behind adds its delay to the latency.
  const one = (started = performance.now()) =>
    new Promise((resolve) => {
      const body = job.bodies[i++ % job.bodies.length];
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            authorization: `Bearer ${job.token}`,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(performance.now() - started);
            else errors++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const started = performance.now();
  const deadline = started + job.seconds * 1000;
  if (job.rate) {
    // Open loop: requests leave on schedule whatever the replies do (no coordinated omission).
    const interval = 1000 / job.rate;
    const pending = [];
    for (let n = 0; ; n++) {
      const at = started + n * interval;
      if (at >= deadline) break;
      const wait = at - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      pending.push(one(at));
    }
    await Promise.all(pending);
  } else {
    await Promise.all(
      Array.from({ length: job.concurrency }, async () => {
        while (performance.now() < deadline) await one();
      }),
    );
  }
  agent.destroy();
  return { latenciesMs: latencies, errors, seconds: (performance.now() - started) / 1000 };
}

run(workerData).then((result) => parentPort.postMessage(result));
