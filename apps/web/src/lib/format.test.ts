import i18n from 'i18next';
import { afterEach, describe, expect, test } from 'vitest';
import { formatDate, formatDateTime } from './format.ts';

// UI.md "One look on every screen": one date style for the whole console, in the admin's language.

afterEach(() => {
  i18n.language = 'en';
});

describe('the one date style', () => {
  test('a day and a moment read alike: short month, the day, the year; a moment adds its time', () => {
    i18n.language = 'en';
    expect(formatDate('2026-11-28')).toBe('Nov 28, 2026');
    expect(formatDate('2027-07-01T00:00:00Z')).toBe('Jul 1, 2027');
    expect(formatDateTime(new Date(2026, 10, 28, 12, 2).toISOString())).toBe('Nov 28, 2026, 12:02 PM');
  });

  test('never ISO, and in the admin language', () => {
    i18n.language = 'de';
    expect(formatDate('2026-11-28')).toBe('28. Nov. 2026');
    expect(formatDateTime(new Date(2026, 10, 28, 12, 2).toISOString())).toBe('28. Nov. 2026, 12:02');
  });
});
