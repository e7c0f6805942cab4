import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * Issue 17 (spec §5): every text field the admin types or pastes into has a maximum length
 * (`maxLength`, or `limitProps`, which also cuts a paste). Read-only fields and date pickers type
 * nothing. This reads the console's sources, so a new field without a limit fails here.
 */
const SRC = join(import.meta.dirname, '..');
const FIELD = /<(TextInput|PasswordInput|Textarea)\b/g;
const EXEMPT = /\breadOnly\b|type="date"|\bdisabled\b(?!=)/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path);
    return e.name.endsWith('.tsx') && !e.name.includes('.test.') ? [path] : [];
  });
}

/** The opening tag from `<` to its closing `>`, skipping `>` inside `{…}` (arrows, comparisons). */
function openingTag(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === '>' && depth === 0) return text.slice(start, i + 1);
  }
  return text.slice(start);
}

/** Every field found, and those without a limit. */
function scan(): { fields: number; unlimited: string[] } {
  let fields = 0;
  const found: string[] = [];
  for (const file of files(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(FIELD)) {
      fields++;
      const tag = openingTag(text, match.index);
      if (/maxLength|limitProps\(/.test(tag) || EXEMPT.test(tag)) continue;
      found.push(`${relative(SRC, file)}:${text.slice(0, match.index).split('\n').length} ${match[1]}`);
    }
  }
  return { fields, unlimited: found };
}

describe('text field limits', () => {
  test('every text, password and multi-line field has a maximum length', () => {
    const { fields, unlimited } = scan();
    // The scan really reads the console's forms (about 50 fields today).
    expect(fields).toBeGreaterThan(30);
    expect(unlimited).toEqual([]);
  });

  test('the scan sees a field without one', () => {
    expect(openingTag('<TextInput value={v} onChange={(e) => set(e)} />', 0)).toBe(
      '<TextInput value={v} onChange={(e) => set(e)} />',
    );
    expect(/maxLength|limitProps\(/.test(openingTag('<TextInput label="x" onChange={(e) => f(e)} />', 0))).toBe(false);
  });
});
