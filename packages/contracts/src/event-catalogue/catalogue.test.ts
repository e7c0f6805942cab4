/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APPROVAL_EVENTS } from '../approvals.ts';
import { FASTSPRING_EVENT_TYPES } from '../billing-constants.ts';
import { EVENT_TYPES } from '../eventlogs-constants.ts';
import { LOCALES } from '../locales.ts';
import { WIZARD_ACTIONS } from '../onboarding-constants.ts';
import { ENGLISH_ACTIVITY_LABELS } from './english-labels.ts';
import { englishLabelsSource } from './english-labels-source.ts';
import { eventsDocSource } from './events-doc.ts';
import {
  ACTIVITY_CATALOGUE,
  ACTIVITY_COMPONENTS,
  activityDescriptionKey,
  activityLabelKey,
  catalogueEntry,
  componentLabelKey,
} from './index.ts';

const root = join(import.meta.dirname, '../../../..');
const messages = (locale: string): Record<string, string> =>
  JSON.parse(readFileSync(join(root, `apps/web/src/locales/${locale}.json`), 'utf8'));
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)].map((m) => m[1] ?? '');

/** Every non-test TypeScript file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(path);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) && !path.includes('/testing/') ? [path] : [];
  });
}

describe('the activity catalogue', () => {
  it('declares each code once, in the shape the event contract accepts', () => {
    const codes = ACTIVITY_CATALOGUE.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9_]+\.[a-z0-9_]+$/);
    expect(catalogueEntry('auth.sign_in')).toMatchObject({ component: 'auth', severity: 'info', fields: ['method'] });
    expect(catalogueEntry('made.up')).toBeUndefined();
  });

  it('declares the activities made from the contracts’ lists (apps, approvals, payment notices, onboarding)', () => {
    const made = [
      ...EVENT_TYPES.map((t) => `app.${t}`),
      ...APPROVAL_EVENTS.map((e) => e.replace(/^approval_/, 'approval.')),
      ...FASTSPRING_EVENT_TYPES.map((t) => `billing.fastspring_${t.replaceAll('.', '_')}`),
      ...WIZARD_ACTIONS.map((a) => `onboarding.${a}`),
      ...['rejected', 'expired', 'withdrawn'].map((r) => `admin.elevation_${r}`),
    ];
    expect(made.filter((code) => !catalogueEntry(code))).toEqual([]);
  });

  it('declares every activity code the server and the Hub write literally', () => {
    const written = new Set<string>();
    for (const dir of ['apps/server/src', 'apps/hub/src'])
      for (const file of sources(join(root, dir))) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/activity: '([a-z0-9_]+\.[a-z0-9_]+)'/g)) written.add(m[1] ?? '');
        // Actions named the way history tables name them: recordAdminEvent, recordMemberEvents, billing's recordEvent, scimEvent.
        for (const m of text.matchAll(
          /(?:recordAdminEvent|recordMemberEvents|recordEvent|scimEvent|record)\([^)]*?'([a-z]+_[a-z_]+)'/g,
        ))
          written.add((m[1] ?? '').replace('_', '.'));
      }
    expect(written.size).toBeGreaterThan(50);
    expect([...written].filter((code) => !catalogueEntry(code))).toEqual([]);
  });

  it('has a label, a description with only its own parameters, and component names in every locale', () => {
    for (const locale of LOCALES) {
      const m = messages(locale);
      for (const e of ACTIVITY_CATALOGUE) {
        expect(m[activityLabelKey(e.code)], `${locale} ${e.code}`).toBeTruthy();
        const description = m[activityDescriptionKey(e.code)] ?? '';
        expect(description, `${locale} ${e.code}`).not.toBe('');
        const allowed = new Set(['actor', 'target', ...e.fields]);
        expect(
          placeholders(description).filter((p) => !allowed.has(p)),
          `${locale} ${e.code}`,
        ).toEqual([]);
      }
      for (const component of Object.keys(ACTIVITY_COMPONENTS))
        expect(m[componentLabelKey(component)], `${locale} ${component}`).toBeTruthy();
    }
  });

  it('is what docs/events.md says (npm run gen:events-doc)', () => {
    expect(readFileSync(join(root, 'docs/events.md'), 'utf8')).toBe(eventsDocSource(messages('en')));
  });
});

it('keeps the English labels the server and the Hub write (exports) equal to the console’s English source', () => {
  const en = messages('en');
  for (const e of ACTIVITY_CATALOGUE) expect(ENGLISH_ACTIVITY_LABELS[e.code], e.code).toBe(en[activityLabelKey(e.code)]);
});

it('writes the English labels from the console’s English source (npm run gen:events-doc), never by hand', () => {
  expect(readFileSync(join(root, 'packages/contracts/src/event-catalogue/english-labels.ts'), 'utf8')).toBe(
    englishLabelsSource(messages('en')),
  );
});
