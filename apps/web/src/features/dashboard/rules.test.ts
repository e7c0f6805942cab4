import { describe, expect, it } from 'vitest';
import { gaugeLabelKey, gaugePercent, rememberTrialPopup, shouldShowTrialPopup, trialLevel } from './rules.ts';

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
