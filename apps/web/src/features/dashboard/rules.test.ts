import { describe, expect, it } from 'vitest';
import {
  endedNextKey,
  gaugeLabelKey,
  gaugePercent,
  graceKey,
  noticeAudience,
  noticeDay,
  rememberTrialPopup,
  shouldShowTrialPopup,
  trialLevel,
} from './rules.ts';

describe('licence gauge', () => {
  it('is 100 % and counts available licences when unlimited', () => {
    expect(gaugePercent({ active_subscriptions: 40, total_subscriptions: -1 })).toBe(100);
    expect(gaugeLabelKey({ active_subscriptions: 40, total_subscriptions: -1 })).toBe('dashboard.licences_available');
  });
  it('is active / total otherwise', () => {
    expect(gaugePercent({ active_subscriptions: 25, total_subscriptions: 100 })).toBe(25);
    expect(gaugePercent({ active_subscriptions: 0, total_subscriptions: 0 })).toBe(0);
    expect(gaugeLabelKey({ active_subscriptions: 25, total_subscriptions: 100 })).toBe('dashboard.licences_active');
  });
});

describe('trial', () => {
  it('banner levels by days left', () => {
    expect([5, 2, 1, 0, -1].map(trialLevel)).toEqual(['info', 'info', 'warning', 'today', 'expired']);
  });
  it('popup at 0–3 days, once a day', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    } as Storage;
    const day = new Date('2026-05-01T10:00:00Z');
    expect(shouldShowTrialPopup(4, 't', storage, day)).toBe(false);
    expect(shouldShowTrialPopup(-1, 't', storage, day)).toBe(false);
    expect(shouldShowTrialPopup(3, 't', storage, day)).toBe(true);
    rememberTrialPopup('t', storage, day);
    expect(shouldShowTrialPopup(2, 't', storage, new Date('2026-05-01T22:00:00Z'))).toBe(false);
    expect(shouldShowTrialPopup(2, 'other', storage, day)).toBe(true);
    expect(shouldShowTrialPopup(1, 't', storage, new Date('2026-05-02T08:00:00Z'))).toBe(true);
  });
});

describe('billing notice (grace period, ended)', () => {
  it('the day it is about, from the days left the server counts in UTC', () => {
    const now = new Date('2026-11-28T23:30:00Z');
    expect(noticeDay(9, now)).toBe('2026-12-07');
    expect(noticeDay(0, now)).toBe('2026-11-28');
    expect(noticeDay(-31, now)).toBe('2026-10-28');
  });
  it('says who can put it right: the super admin here, a partner, or a super admin to ask', () => {
    expect(noticeAudience(true, null)).toBe('billing');
    expect(noticeAudience(true, 'fastspring')).toBe('billing');
    expect(noticeAudience(false, null)).toBe('ask');
    expect(noticeAudience(true, 'reseller')).toBe('reseller');
    expect(noticeAudience(false, 'b2b_benefit')).toBe('b2b_benefit');
    expect(['billing', 'ask', 'reseller', 'b2b_benefit'].map((a) => graceKey(a as never))).toEqual([
      'billing.grace.body',
      'notice.grace.body_admin',
      'notice.grace.reseller',
      'notice.grace.b2b_benefit',
    ]);
    expect(['billing', 'ask', 'reseller', 'b2b_benefit'].map((a) => endedNextKey(a as never))).toEqual([
      'notice.ended.renew',
      'notice.ended.ask',
      'notice.ended.reseller',
      'notice.ended.b2b_benefit',
    ]);
  });
});
