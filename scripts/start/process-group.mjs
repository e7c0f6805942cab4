// Every program `npm start` runs is the leader of a process group of its own: stopping the group
// stops whatever the program started in turn (npm's shell and vite during the build, a runner's
// node). Ctrl-C from the terminal then reaches the launcher alone, which stops each group in turn.
import { spawn } from 'node:child_process';

/** Spawns `command` as a group leader; `exited` resolves once it ended and its output was read. */
export function spawnGroup(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true });
  const outputs = [child.stdout, child.stderr].filter(Boolean);
  const drained = Promise.all(outputs.map((stream) => new Promise((resolve) => stream.on('close', resolve))));
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      // What the program started and left behind goes with it.
      signalGroup(child, 'SIGKILL');
      // Output still in the pipe belongs to the report; a descendant holding the pipe open must not stall it.
      Promise.race([drained, new Promise((r) => setTimeout(r, 1000))]).then(() => resolve({ code, signal }));
    });
    child.on('error', (error) => resolve({ code: null, signal: null, error }));
  });
  return { child, exited };
}

/** Sends `signal` to the whole group; false when nothing of it is left. */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops groups: SIGTERM, lets each program close its database for `graceMs`, then SIGKILL for what
 * is left.
 */
export async function stopGroups(groups, graceMs = 10_000) {
  const running = groups.filter((g) => g.child.pid && g.child.exitCode === null && g.child.signalCode === null);
  for (const g of running) signalGroup(g.child, 'SIGTERM');
  let timer;
  const deadline = new Promise((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([Promise.all(running.map((g) => g.exited)), deadline]);
  clearTimeout(timer);
  for (const g of running) signalGroup(g.child, 'SIGKILL');
  await Promise.race([Promise.all(running.map((g) => g.exited)), new Promise((r) => setTimeout(r, 2000))]);
}
