/**
 * Pro-rating, pure: every amount in integer cents, every date a UTC day (YYYY-MM-DD). A term runs
 * from `termStart` (its first day) up to `billEnd` (the renewal date, the first day of the next
 * term); on day d of the term, `billEnd − d` days remain, today included: the whole term on its
 * first day, one day on its last.
 */
import type { BillFrequency, PlanType } from '@latchkey/contracts';

const DAY_MS = 86_400_000;

/** Catalogue prices: one licence for one term (a month for '1', a year for '12'), in cents. */
export const PLAN_PRICE_CENTS: Record<PlanType, Record<BillFrequency, number>> = {
  starter: { '1': 400, '12': 4000 },
  standard: { '1': 700, '12': 7200 },
  enterprise: { '1': 1000, '12': 9600 },
};

const dayNumber = (day: string): number => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);
export const addDays = (day: string, n: number): string => new Date((dayNumber(day) + n) * DAY_MS).toISOString().slice(0, 10);
export const todayUtc = (now = new Date()): string => now.toISOString().slice(0, 10);

/** `day` plus `months` calendar months; the 31st of a shorter month becomes its last day. */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}

interface Term {
  termStart: string;
  billEnd: string;
}

/** Days of the term, and days left from `today` (today included), clamped to the term. */
export function termDays(term: Term, today: string): { total: number; remaining: number } {
  const total = Math.max(1, daysBetween(term.termStart, term.billEnd));
  const remaining = Math.min(total, Math.max(0, daysBetween(today, term.billEnd)));
  return { total, remaining };
}

/** `cents` for `remaining` of `total` days, rounded to the cent. */
const prorate = (cents: number, remaining: number, total: number): number => Math.round((cents * remaining) / total);

interface LicenceQuote {
  pricePerLicence: number;
  proRated: number;
  remainingDays: number;
  termDays: number;
}

/** Adding `quantity` licences at `unitCents` a term, for the rest of the current term. */
export function quoteLicences(unitCents: number, quantity: number, term: Term, today: string): LicenceQuote {
  const { total, remaining } = termDays(term, today);
  return {
    pricePerLicence: unitCents,
    proRated: prorate(unitCents * quantity, remaining, total),
    remainingDays: remaining,
    termDays: total,
  };
}

interface PlanChangeQuote {
  credit: number;
  charge: number;
  amountDue: number;
  /** The term after the change: the same one (same frequency), or a new one from today. */
  term: Term;
}

/**
 * Changing plan for `licences` licences. The unused part of the current term is credited (nothing
 * for a trial, which was not paid). The same frequency keeps the term and charges the new price
 * for its rest; another frequency (the saving-plan switch) or a trial's conversion starts a new
 * term today, charged whole. What is due never goes below 0 (a credit is not refunded).
 */
export function quotePlanChange(
  current: { unitCents: number; frequency: BillFrequency; trial: boolean },
  target: { unitCents: number; frequency: BillFrequency },
  licences: number,
  term: Term,
  today: string,
): PlanChangeQuote {
  const { total, remaining } = termDays(term, today);
  const credit = current.trial ? 0 : prorate(current.unitCents * licences, remaining, total);
  const keepsTerm = !current.trial && current.frequency === target.frequency && remaining > 0;
  const newTerm = keepsTerm ? term : { termStart: today, billEnd: addMonths(today, Number(target.frequency)) };
  const charge = keepsTerm ? prorate(target.unitCents * licences, remaining, total) : target.unitCents * licences;
  return { credit, charge, amountDue: Math.max(0, charge - credit), term: newTerm };
}

/** Cents as the contract's money: a number with 2 decimals. */
export const toMoney = (cents: number): number => Math.round(cents) / 100;
