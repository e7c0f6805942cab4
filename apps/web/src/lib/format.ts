import { currentLocale } from './i18n.ts';

/** Numbers and dates in the console's current language (UI.md: through Intl). */
export const formatNumber = (n: number): string => new Intl.NumberFormat(currentLocale()).format(n);
export const formatPercent = (ratio: number): string =>
  new Intl.NumberFormat(currentLocale(), { style: 'percent', maximumFractionDigits: 0 }).format(ratio);
/** `dd LLLL yyyy` of the spec, as the locale writes it. */
export const formatDate = (iso: string | number): string =>
  new Intl.DateTimeFormat(currentLocale(), { day: '2-digit', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(iso),
  );
/** `MMM dd yyyy hh:mm a` of the spec, as the locale writes it. */
export const formatDateTime = (iso: string): string =>
  new Intl.DateTimeFormat(currentLocale(), {
    month: 'short',
    day: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
export const formatMonth = (epochMs: number): string =>
  new Intl.DateTimeFormat(currentLocale(), { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(new Date(epochMs));
/** Prices with 2 decimals in a currency (spec §9), as the locale writes them. */
export const formatMoney = (amount: number, currency: string): string =>
  new Intl.NumberFormat(currentLocale(), {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(amount);
