// One program `npm start` runs (the server, the Hub, the demo identity provider): its output read
// line by line, the last lines kept for the report when it stops, its latest start-up step kept
// for "still starting" lines.
import { spawnGroup } from './process-group.mjs';

const KEPT_LINES = 25;

/**
 * `onLine(program, line, stream)` shows a line; it returns the text that says what the program is
 * doing, when the line says so. The IPC channel is one the program watches: it stops when the
 * launcher is gone, even killed outright (packages/runtime/src/follow-parent.ts).
 */
export function runProgram({ name, title, command, args, cwd, env, onLine }) {
  const { child, exited } = spawnGroup(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const program = { name, title, child, exited, lastLines: [], step: null, stepAt: Date.now(), exit: null };
  exited.then((result) => {
    program.exit = result;
  });
  for (const [stream, source] of [
    [child.stdout, 'stdout'],
    [child.stderr, 'stderr'],
  ]) {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) take(program, line, source, onLine);
    });
    stream.on('end', () => {
      if (partial) take(program, partial, source, onLine);
    });
  }
  return program;
}

function take(program, line, source, onLine) {
  program.lastLines.push(line);
  if (program.lastLines.length > KEPT_LINES) program.lastLines.shift();
  const step = onLine(program, line, source);
  if (step) {
    program.step = step;
    program.stepAt = Date.now();
  }
}

/** How a program ended, in words. */
export function howItEnded(exit) {
  if (exit?.error) return `could not be started (${exit.error.message})`;
  if (exit?.signal) return `was stopped by ${exit.signal}`;
  return `stopped (exit code ${exit?.code})`;
}
