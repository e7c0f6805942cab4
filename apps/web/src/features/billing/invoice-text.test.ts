import type { Invoice } from '@latchkey/contracts/client';
import i18n from 'i18next';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { changeLanguage, setupI18n } from '../../lib/i18n.ts';
import { invoiceDescription } from './invoice-text.ts';

const t = (key: string, values?: Record<string, string | number>) => i18n.t(key, values);
const FSI = '\u2068';
const PDI = '\u2069';

const DETAIL = { plan: 'standard', plan_duration: '1', licences: 20, from: '2026-11-23', to: '2026-12-22' } as const;

const invoice = (over: Partial<Invoice>): Invoice => ({
  id: '00000000-0000-4000-8000-000000000001',
  number: 'LK-000002',
  kind: 'renewal',
  state: 'open',
  provider: 'manual',
  currency: 'USD',
  total: 140,
  description: 'Renewal, Standard monthly plan, 20 licences, 2026-11-23 to 2026-12-22',
  detail: DETAIL,
  issued_at: '2026-11-23T00:00:00.000Z',
  due_date: '2026-11-23',
  paid_at: null,
  ...over,
});

beforeAll(async () => {
  await setupI18n();
});
afterAll(async () => {
  await changeLanguage('en', false);
});

describe("an invoice's description in the admin's language", () => {
  test('German: the words and the dates as German writes them, no ISO dates', async () => {
    await changeLanguage('de', false);
    expect(invoiceDescription(t, invoice({}))).toBe(
      'Verlängerung von Standard · Monatlich, Lizenzen: 20, 23. Nov. 2026 – 22. Dez. 2026',
    );
    expect(invoiceDescription(t, invoice({ kind: 'licenses', detail: { ...DETAIL, licences: 5 } }))).toBe(
      'Zusätzliche Lizenzen für Standard · Monatlich: 5, 23. Nov. 2026 – 22. Dez. 2026',
    );
  });

  test('Arabic: every number and date isolated, so the fragments keep their order', async () => {
    await changeLanguage('ar', false);
    const text = invoiceDescription(t, invoice({ kind: 'plan_change' }));
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(text).toContain('التراخيص');
    // Three figures (the licences and both dates), each one wrapped in its own isolate.
    expect(text.split(FSI).length - 1).toBe(3);
    expect(text.split(PDI).length - 1).toBe(3);
    for (const part of text.split(FSI).slice(1)) expect(part.indexOf(PDI)).toBeGreaterThan(0);
  });

  test('English keeps no invisible marks; an invoice made before the detail was kept keeps its description', async () => {
    await changeLanguage('en', false);
    expect(invoiceDescription(t, invoice({ kind: 'renewal', detail: { ...DETAIL, licences: null } }))).toBe(
      'Renewal of Standard · Monthly, Nov 23, 2026 – Dec 22, 2026',
    );
    expect(invoiceDescription(t, invoice({ detail: null }))).toBe(
      'Renewal, Standard monthly plan, 20 licences, 2026-11-23 to 2026-12-22',
    );
  });
});
