// Waits for programs to answer /readyz for as long as each is running: a first start on a small
// machine takes a minute or more (creating the databases, every migration, the demo seed), and
// there is no deadline that fits every machine. What ends the wait is a program that stops.
const POLL_MS = 250;
const REPORT_EVERY_MS = 15_000;

async function answers(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/**
 * Resolves `{ ready: true }` once every program answers, or `{ stopped: program }` for the first
 * that stops before. Every REPORT_EVERY_MS it says what each program still starting said last.
 */
export async function waitReady(programs, { started, report }) {
  const ready = new Set();
  let reportedAt = Date.now();
  for (;;) {
    const stopped = programs.find((p) => p.exit);
    if (stopped) return { stopped };
    for (const p of programs) if (!ready.has(p) && (await answers(p.readyUrl))) ready.add(p);
    if (ready.size === programs.length) return { ready: true };
    const now = Date.now();
    if (now - reportedAt >= REPORT_EVERY_MS) {
      reportedAt = now;
      const each = programs.map((p) =>
        ready.has(p) ? `${p.title}: ready` : `${p.title}: ${p.step ?? 'no word yet'} (said ${seconds(now - p.stepAt)} ago)`,
      );
      report(`Still starting after ${seconds(now - started)} — ${each.join('; ')}.`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
