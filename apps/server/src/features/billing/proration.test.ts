import { describe, expect, test } from 'vitest';
import { assertCanAdd } from './licences-add.ts';
import { licencesAfterRemoval } from './licences-remove.ts';
import { addMonths, quoteLicences, quotePlanChange, termDays } from './proration.ts';

// A monthly term of 30 days and a yearly term of 365 days.
const MONTH = { termStart: '2026-11-01', billEnd: '2026-12-01' };
const YEAR = { termStart: '2026-01-01', billEnd: '2027-01-01' };

describe('pro-rating (unit)', () => {
  test('days left: the whole term on its first day, one on its last, none after', () => {
    expect(termDays(MONTH, '2026-11-01')).toEqual({ total: 30, remaining: 30 });
    expect(termDays(MONTH, '2026-11-16')).toEqual({ total: 30, remaining: 15 });
    expect(termDays(MONTH, '2026-11-30')).toEqual({ total: 30, remaining: 1 });
    expect(termDays(MONTH, '2026-12-05')).toEqual({ total: 30, remaining: 0 });
    expect(termDays(YEAR, '2026-07-02')).toEqual({ total: 365, remaining: 183 });
  });

  test('licences, monthly: first, middle and last day of the term', () => {
    expect(quoteLicences(700, 3, MONTH, '2026-11-01').proRated).toBe(2100);
    expect(quoteLicences(700, 3, MONTH, '2026-11-16').proRated).toBe(1050);
    expect(quoteLicences(700, 3, MONTH, '2026-11-30').proRated).toBe(70);
    expect(quoteLicences(700, 3, MONTH, '2026-11-16').pricePerLicence).toBe(700);
  });

  test('licences, yearly: first, middle and last day of the term', () => {
    expect(quoteLicences(7200, 2, YEAR, '2026-01-01').proRated).toBe(14400);
    // 183 of 365 days: 14400 × 183 / 365 = 7219.73 → 7220 cents.
    expect(quoteLicences(7200, 2, YEAR, '2026-07-02').proRated).toBe(7220);
    // One day: 14400 / 365 = 39.45 → 39 cents.
    expect(quoteLicences(7200, 2, YEAR, '2026-12-31').proRated).toBe(39);
  });

  test('plan change, same frequency: the difference for the rest of the term, the term kept', () => {
    const upgrade = (today: string) =>
      quotePlanChange({ unitCents: 700, frequency: '1', trial: false }, { unitCents: 1000, frequency: '1' }, 10, MONTH, today);
    expect(upgrade('2026-11-01')).toEqual({ credit: 7000, charge: 10000, amountDue: 3000, term: MONTH });
    expect(upgrade('2026-11-16')).toMatchObject({ credit: 3500, charge: 5000, amountDue: 1500 });
    expect(upgrade('2026-11-30')).toMatchObject({ credit: 233, charge: 333, amountDue: 100 });
    const yearly = quotePlanChange(
      { unitCents: 4000, frequency: '12', trial: false },
      { unitCents: 9600, frequency: '12' },
      5,
      YEAR,
      '2026-07-02',
    );
    expect(yearly).toMatchObject({
      credit: Math.round((20000 * 183) / 365),
      charge: Math.round((48000 * 183) / 365),
      term: YEAR,
    });
  });

  test('plan change, downgrade: nothing due (a credit is not refunded)', () => {
    const down = quotePlanChange(
      { unitCents: 1000, frequency: '1', trial: false },
      { unitCents: 400, frequency: '1' },
      10,
      MONTH,
      '2026-11-16',
    );
    expect(down.amountDue).toBe(0);
    expect(down.credit).toBeGreaterThan(down.charge);
  });

  test('saving-plan switch (monthly → yearly): a new yearly term from today, the unused month credited', () => {
    const first = quotePlanChange(
      { unitCents: 700, frequency: '1', trial: false },
      { unitCents: 7200, frequency: '12' },
      10,
      MONTH,
      '2026-11-01',
    );
    expect(first).toEqual({
      credit: 7000,
      charge: 72000,
      amountDue: 65000,
      term: { termStart: '2026-11-01', billEnd: '2027-11-01' },
    });
    const middle = quotePlanChange(
      { unitCents: 700, frequency: '1', trial: false },
      { unitCents: 7200, frequency: '12' },
      10,
      MONTH,
      '2026-11-16',
    );
    expect(middle).toMatchObject({ credit: 3500, amountDue: 68500, term: { termStart: '2026-11-16', billEnd: '2027-11-16' } });
    const last = quotePlanChange(
      { unitCents: 700, frequency: '1', trial: false },
      { unitCents: 7200, frequency: '12' },
      10,
      MONTH,
      '2026-11-30',
    );
    expect(last).toMatchObject({ credit: 233, amountDue: 71767 });
  });

  test('yearly → monthly in the middle of the year: a new month, the rest of the year credited, nothing due', () => {
    const q = quotePlanChange(
      { unitCents: 7200, frequency: '12', trial: false },
      { unitCents: 700, frequency: '1' },
      10,
      YEAR,
      '2026-07-02',
    );
    expect(q).toMatchObject({ charge: 7000, amountDue: 0, term: { termStart: '2026-07-02', billEnd: '2026-08-02' } });
  });

  test('a trial converts: nothing credited, a whole term from today', () => {
    const q = quotePlanChange(
      { unitCents: 400, frequency: '1', trial: true },
      { unitCents: 4000, frequency: '12' },
      6,
      MONTH,
      '2026-11-20',
    );
    expect(q).toEqual({ credit: 0, charge: 24000, amountDue: 24000, term: { termStart: '2026-11-20', billEnd: '2027-11-20' } });
  });

  test('months: the 31st becomes the last day of a shorter month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-11-24', 12)).toBe('2027-11-24');
  });

  test('the 500 cap counts licences bought and on order; unlimited takes none', () => {
    expect(() => assertCanAdd(490, 0, 10)).not.toThrow();
    expect(() => assertCanAdd(490, 0, 11)).toThrow(/10 more/);
    expect(() => assertCanAdd(480, 15, 6)).toThrow(/5 more/);
    expect(() => assertCanAdd(-1, 0, 1)).toThrow(/unlimited/);
  });

  test('removal floor: licences left after removal, negative when it would go below those in use', () => {
    expect(licencesAfterRemoval(20, 12, 8)).toBe(0);
    expect(licencesAfterRemoval(20, 12, 9)).toBe(-1);
  });
});
