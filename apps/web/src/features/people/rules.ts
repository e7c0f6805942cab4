import type { LicenceSummary } from '@latchkey/contracts/client';

/** Licence gauge (spec §4): 100 % when unlimited, otherwise active / total. */
export function gaugePercent(summary: LicenceSummary): number {
  if (summary.total_subscriptions < 0) return 100;
  if (summary.total_subscriptions === 0) return 0;
  return Math.min(100, Math.round((summary.active_subscriptions / summary.total_subscriptions) * 100));
}

/** The gauge's label: active licences, or available licences when unlimited (spec §4). */
export const gaugeLabelKey = (summary: LicenceSummary): string =>
  summary.total_subscriptions < 0 ? 'dashboard.licences_available' : 'dashboard.licences_active';

export type TrialLevel = 'info' | 'warning' | 'today' | 'expired';

/** Trial banner (spec §4): more than 1 day info; 1 day warning; 0 'expires today'; below 0 'expired'. */
export function trialLevel(daysLeft: number): TrialLevel {
  if (daysLeft < 0) return 'expired';
  if (daysLeft === 0) return 'today';
  if (daysLeft === 1) return 'warning';
  return 'info';
}

const POPUP_KEY = 'latchkey.trialPopup';

/** The trial popup shows at 0 to 3 days left, at most once a day per team (spec §4). */
export function shouldShowTrialPopup(daysLeft: number, team: string, storage: Storage, now = new Date()): boolean {
  if (daysLeft < 0 || daysLeft > 3) return false;
  const today = now.toISOString().slice(0, 10);
  return storage.getItem(`${POPUP_KEY}.${team}`) !== today;
}

export function rememberTrialPopup(team: string, storage: Storage, now = new Date()): void {
  storage.setItem(`${POPUP_KEY}.${team}`, now.toISOString().slice(0, 10));
}

/** Badges (spec §9): text truncated at `max` characters with an ellipsis. */
export const truncate = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Keyset paging state: the cursor of each page visited, so Previous needs no OFFSET. */
export interface Paging {
  cursors: (string | null)[];
}
export const firstPage = (): Paging => ({ cursors: [null] });
export const nextPage = (p: Paging, cursor: string): Paging => ({ cursors: [...p.cursors, cursor] });
export const previousPage = (p: Paging): Paging => ({ cursors: p.cursors.length > 1 ? p.cursors.slice(0, -1) : p.cursors });
export const currentCursor = (p: Paging): string | null => p.cursors.at(-1) ?? null;
export const pageNumber = (p: Paging): number => p.cursors.length;

/** Emails from a CSV file: any cell that looks like an email, lower-cased, deduplicated, in order. */
export function emailsFromCsv(text: string): string[] {
  const found = text.match(/[^\s,;"'<>]+@[^\s,;"'<>]+\.[^\s,;"'<>]+/g) ?? [];
  return [...new Set(found.map((e) => e.toLowerCase()))];
}
