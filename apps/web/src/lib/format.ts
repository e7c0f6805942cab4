import { RTL_LOCALES } from '@latchkey/contracts/client';
import { currentLocale } from './i18n.ts';

/**
 * Numbers and dates in the console's current language (UI.md: through Intl). A formatter is made
 * once per language and style: making one costs far more than using it (60 ms of the dashboard's
 * first render went to new formatters for its chart).
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(
  kind: string,
  options: object,
  make: (locale: string) => F,
): F {
  const locale = currentLocale();
  const key = `${kind} ${locale} ${JSON.stringify(options)}`;
  const held = formatters.get(key);
  if (held) return held as F;
  const made = make(locale);
  formatters.set(key, made);
  return made;
}

const numbers = (options: Intl.NumberFormatOptions = {}) =>
  cached('n', options, (locale) => new Intl.NumberFormat(locale, options));
const dates = (options: Intl.DateTimeFormatOptions) => cached('d', options, (locale) => new Intl.DateTimeFormat(locale, options));

const PERCENT: Intl.NumberFormatOptions = { style: 'percent', maximumFractionDigits: 0 };
/**
 * The console's one date style (UI.md "One look on every screen"): the day, the month's short name
 * and the year, in the admin's locale; events add the time of day. Dates without a time (billing
 * days, stored as UTC midnight) are read in UTC so they never move a day.
 */
const DATE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
const DATE_TIME: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};
const MONTH: Intl.DateTimeFormatOptions = { month: 'short', year: '2-digit', timeZone: 'UTC' };

export const formatNumber = (n: number): string => numbers().format(n);
export const formatPercent = (ratio: number): string => numbers(PERCENT).format(ratio);
/** A day (billing, added on): "Nov 28, 2026" in English. */
export const formatDate = (iso: string | number): string => dates(DATE).format(new Date(iso));
/** A moment (events, last seen): "Nov 28, 2026, 12:02 PM" in English. */
export const formatDateTime = (iso: string): string => dates(DATE_TIME).format(new Date(iso));
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
/** A moment of today as its time alone ("10:42"), any other day as `formatDateTime` writes it. */
export const formatMoment = (iso: string, now: Date = new Date()): string => {
  const at = new Date(iso);
  return at.toDateString() === now.toDateString() ? dates(TIME).format(at) : formatDateTime(iso);
};
export const formatMonth = (epochMs: number): string => dates(MONTH).format(new Date(epochMs));
/** Prices with 2 decimals in a currency (spec §9), as the locale writes them. */
export const formatMoney = (amount: number, currency: string): string =>
  numbers({ style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);

/**
 * Makes the landing screens' formatters ahead, one small task each, while a cold load waits for
 * its answers: the first formatter of a kind loads the language's data (~15 ms each), which would
 * otherwise land in the one long task that renders those answers.
 */
export function prepareFormatters(): void {
  const makers = [() => numbers(), () => dates(DATE), () => dates(DATE_TIME), () => dates(MONTH), () => numbers(PERCENT)];
  const next = () => {
    makers.shift()?.();
    if (makers.length > 0) setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

/** First letter of the name, else of the email (spec §3 Admin profile): the avatar's letter. */
export const initialOf = (name: string, email: string): string => (name.trim() || email).charAt(0).toUpperCase();

/**
 * A number or date set inside a sentence, isolated (Unicode FSI … PDI) in right-to-left languages so
 * its digits and the words around it keep their order (UI.md: isolated for right-to-left languages).
 */
export const isolate = (text: string): string => (RTL_LOCALES.includes(currentLocale()) ? `\u2068${text}\u2069` : text);

/** A time of today (an elevation's end): hours and minutes in the admin's locale. */
export const formatTime = (epochMs: number): string => dates(TIME).format(new Date(epochMs));

/** What is left of a countdown, as h:mm:ss or m:ss (never negative). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}
