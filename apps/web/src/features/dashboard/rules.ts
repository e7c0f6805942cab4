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

type TrialLevel = 'info' | 'warning' | 'today' | 'expired';

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
