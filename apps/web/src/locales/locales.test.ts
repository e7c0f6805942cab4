/// <reference types="node" />
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALES } from '@latchkey/contracts/client';
import { describe, expect, it } from 'vitest';

type Messages = Record<string, string>;

// A path, not a URL: under happy-dom the global URL is the DOM's, which node:fs does not read.
const here = dirname(fileURLToPath(import.meta.url));
const fileOf = (code: string): string => join(here, `${code}.json`);
const load = (code: string): Messages => JSON.parse(readFileSync(fileOf(code), 'utf8')) as Messages;

/** The distinct i18next placeholders in a message, e.g. `{{email}}` → `email`. */
const placeholders = (text: string): string[] =>
  [...new Set([...text.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)].map((m) => m[1] ?? ''))].sort();

/** Markup and literal tokens in angle brackets, e.g. `<bold>`, `</bold>`, `<0/>` or a CLI's `<team>`. */
const tags = (text: string): string[] => [...text.matchAll(/<\/?[A-Za-z0-9_-]+\s*\/?>/g)].map((m) => m[0]).sort();

const en = load('en');
const enKeys = Object.keys(en).sort();
// Sentences, not labels: a short label may legitimately read the same in another language.
const sentenceKeys = Object.keys(en).filter((key) => (en[key] ?? '').trim().split(/\s+/).length > 3);
const MAX_UNTRANSLATED = 0.25;
// The same bound per feature area (the key's first segment), so that one whole screen left in English
// (as event logs, SIEM, SSO and SCIM once were in 30 locales) fails even when the rest is translated.
const areaOf = (key: string): string => key.split('.')[0] ?? key;
const byArea = new Map<string, string[]>();
for (const key of sentenceKeys) byArea.set(areaOf(key), [...(byArea.get(areaOf(key)) ?? []), key]);
const sentenceKeysByArea = [...byArea].filter(([, keys]) => keys.length >= 5);

describe('locale files', () => {
  it('is a flat object of non-empty strings', () => {
    for (const [key, value] of Object.entries(en)) {
      expect(typeof value, key).toBe('string');
      expect(value.trim(), key).not.toBe('');
    }
    expect(sentenceKeys.length).toBeGreaterThan(0);
  });

  it('has every message key the server and the Hub send (AppError.shows)', () => {
    const root = join(here, '../../../..');
    const sent = new Set<string>();
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (/\.ts$/.test(entry.name) && !entry.name.endsWith('.test.ts')) {
          for (const m of readFileSync(path, 'utf8').matchAll(/\.shows\(\s*'([^']+)'/g)) sent.add(m[1] ?? '');
          for (const m of readFileSync(path, 'utf8').matchAll(/'(errors\.[a-z_]+)'/g)) sent.add(m[1] ?? '');
        }
      }
    };
    for (const dir of ['apps/server/src', 'apps/hub/src']) visit(join(root, dir));
    expect(sent.size).toBeGreaterThan(40);
    expect([...sent].filter((key) => !(key in en))).toEqual([]);
  });

  it('has a translation file for every locale', () => {
    expect(LOCALES.filter((code) => !existsSync(fileOf(code)))).toEqual([]);
  });
});

describe.each(LOCALES.filter((code) => code !== 'en'))('locale %s', (code) => {
  it('has exactly the keys of en.json', () => {
    expect(Object.keys(load(code)).sort()).toEqual(enKeys);
  });

  it('keeps every placeholder and adds none', () => {
    const messages = load(code);
    for (const key of Object.keys(en)) {
      expect(placeholders(messages[key] ?? ''), key).toEqual(placeholders(en[key] ?? ''));
    }
  });

  it('keeps every tag and adds none', () => {
    const messages = load(code);
    for (const key of Object.keys(en)) {
      expect(tags(messages[key] ?? ''), key).toEqual(tags(en[key] ?? ''));
    }
  });

  it('has no empty values', () => {
    for (const [key, value] of Object.entries(load(code))) {
      expect(typeof value, key).toBe('string');
      expect(value.trim(), key).not.toBe('');
    }
  });

  it('is not a copy of English', () => {
    const messages = load(code);
    const same = sentenceKeys.filter((key) => messages[key] === en[key]);
    expect(same.length / sentenceKeys.length, `identical to English: ${same.join(', ')}`).toBeLessThanOrEqual(MAX_UNTRANSLATED);
  });

  it.each(sentenceKeysByArea)('translates the %s screens, not only the rest', (_area, keys) => {
    const messages = load(code);
    const same = keys.filter((key) => messages[key] === en[key]);
    expect(same.length / keys.length, `identical to English: ${same.join(', ')}`).toBeLessThanOrEqual(MAX_UNTRANSLATED);
  });
});
