// The ports `npm start` needs, checked before it builds or starts anything: a program finding its
// port taken would otherwise fail only when it starts listening, a minute into a first start.
import { createServer } from 'node:net';

function canListen(port, host) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** The ones of `ports` ({ port, host, use, setting }) that another process holds, in words; empty when all are free. */
export async function takenPorts(ports) {
  const taken = [];
  for (const p of ports) {
    if (!(await canListen(p.port, p.host)))
      taken.push(
        `${p.host}:${p.port} (${p.use}) is in use by another process: stop it, or choose another port with ${p.setting}.`,
      );
  }
  return taken;
}
