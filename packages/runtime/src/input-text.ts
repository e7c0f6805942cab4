import { AppError } from './errors.ts';

/** How deep a body may nest before it is refused outright (a walk must never overflow the stack). */
const MAX_DEPTH = 64;

export interface UnsafeInput {
  path: string;
  problem: 'text' | 'depth';
}

/**
 * Where in `value` there is text PostgreSQL cannot store or that is not Unicode at all: a NUL
 * character, or a lone UTF-16 surrogate (which JSON's `\ud800` escapes can produce). Keys count as
 * text too. Nesting deeper than any call takes is refused as well. Returns the first, or null.
 */
export function findUnsafeInput(value: unknown, path = '', depth = 0): UnsafeInput | null {
  if (typeof value === 'string') return isSafeText(value) ? null : { path, problem: 'text' };
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return { path, problem: 'depth' };
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [key, item] of entries) {
    const at = path ? `${path}.${key}` : key;
    if (!isSafeText(key)) return { path: at, problem: 'text' };
    const found = findUnsafeInput(item, at, depth + 1);
    if (found) return found;
  }
  return null;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isSafeText = (text: string): boolean => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

/** Throws the one 400 every program sends for such text, wherever in the input it is. */
export function assertSafeText(...inputs: unknown[]): void {
  for (const input of inputs) {
    const found = findUnsafeInput(input);
    if (!found) continue;
    const [message, key] =
      found.problem === 'text'
        ? ['Text must not contain NUL characters or broken Unicode.', 'errors.invalid_text']
        : ['The input is nested too deeply.', 'errors.input_too_deep'];
    throw new AppError('invalid_input', message, 400, [{ path: found.path || '(input)', message }]).shows(key);
  }
}
