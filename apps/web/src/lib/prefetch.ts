/**
 * Calls started ahead of the code that needs them. On a cold load of a
 * signed-in page the shell's setup calls and the landing screen's data calls start at boot, in
 * parallel with the screen's code, instead of one after another once each piece of code has
 * arrived. The first `call` with the same name and input takes the answer; an answer is taken
 * once, only by the session that asked for it, and only while fresh.
 */
export const PREFETCH_TTL_MS = 10_000;

interface Entry {
  /** Who asked: another session (sign-out, team switch) never gets it. */
  owner: string;
  at: number;
  /** Resolves to the answer, or to FAILED (the caller then calls as usual, with its error handling). */
  answer: Promise<unknown>;
  /** The answer once it has arrived, and when: a first render can show it without waiting a turn. */
  arrived?: { value: unknown; at: number };
}

export const FAILED: unique symbol = Symbol('prefetch failed');
const entries = new Map<string, Entry>();

const keyOf = (name: string, input: unknown) => `${name} ${JSON.stringify(input ?? {})}`;
/** An entry only the session that asked for it may take, and only while fresh. */
const usable = (held: Entry | undefined, owner: string): held is Entry =>
  held !== undefined && held.owner === owner && Date.now() - held.at < PREFETCH_TTL_MS;

/**
 * Remembers a call already under way; a second one with the same name and input is not started.
 * Returns its answer (FAILED on a failure), for a prefetch that depends on it.
 */
export function rememberPrefetch(name: string, input: unknown, owner: string, start: () => Promise<unknown>): Promise<unknown> {
  const key = keyOf(name, input);
  const held = entries.get(key);
  if (usable(held, owner)) return held.answer;
  const entry: Entry = { owner, at: Date.now(), answer: start().catch(() => FAILED) };
  entry.answer = entry.answer.then((value) => {
    if (value !== FAILED) entry.arrived = { value, at: Date.now() };
    return value;
  });
  entries.set(key, entry);
  return entry.answer;
}

/** The answer of a matching prefetched call (once), or null when there is none to take. */
export function takePrefetch(name: string, input: unknown, owner: string): Promise<unknown> | null {
  const key = keyOf(name, input);
  const held = entries.get(key);
  if (!held) return null;
  entries.delete(key);
  return usable(held, owner) ? held.answer : null;
}

/**
 * The answer of a matching prefetched call that has already arrived (taken, once), or undefined
 * when there is none yet: then the entry stays for the call that will wait for it.
 */
export function takeArrivedPrefetch(name: string, input: unknown, owner: string): { value: unknown; at: number } | undefined {
  const key = keyOf(name, input);
  const held = entries.get(key);
  if (!usable(held, owner) || !held.arrived) return undefined;
  entries.delete(key);
  return held.arrived;
}
