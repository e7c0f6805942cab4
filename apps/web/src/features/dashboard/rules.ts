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

/** The day a notice is about, from its days left (counted from today, UTC, by the server): `YYYY-MM-DD`. */
export function noticeDay(daysLeft: number, now = new Date()): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today + daysLeft * 86_400_000).toISOString().slice(0, 10);
}

/** Who can act on a billing notice: a super admin here, the partner who sells it, or a super admin to ask. */
export type NoticeAudience = 'billing' | 'reseller' | 'b2b_benefit' | 'ask';

export function noticeAudience(canOpenBilling: boolean, purchasePartner: string | null): NoticeAudience {
  if (purchasePartner === 'reseller' || purchasePartner === 'b2b_benefit') return purchasePartner;
  return canOpenBilling ? 'billing' : 'ask';
}

/**
 * What an ended subscription's notice says to do next: choose a plan (billing), ask a super admin,
 * or contact the partner who sells it.
 */
export const endedNextKey = (audience: NoticeAudience): string =>
  audience === 'billing' ? 'notice.ended.renew' : `notice.ended.${audience}`;

/** What a grace period's notice asks: pay the open invoice (billing), ask a super admin, or the partner. */
export const graceKey = (audience: NoticeAudience): string =>
  audience === 'billing' ? 'billing.grace.body' : audience === 'ask' ? 'notice.grace.body_admin' : `notice.grace.${audience}`;
