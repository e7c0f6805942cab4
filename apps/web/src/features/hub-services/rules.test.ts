import { describe, expect, it } from 'vitest';
import { linkIsLive, scoreLevel, within } from './rules.ts';

describe('hub service rules', () => {
  it('grades a vault score against the policy threshold', () => {
    expect(scoreLevel(59, 60)).toBe('at_risk');
    expect(scoreLevel(60, 60)).toBe('fair');
    expect(scoreLevel(79, 60)).toBe('fair');
    expect(scoreLevel(80, 60)).toBe('healthy');
    expect(scoreLevel(85, 90)).toBe('at_risk');
  });

  it('treats only an approved, unexpired link as live', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(linkIsLive({ state: 'approved', link_expires_at: '2026-11-22T10:00:01Z' }, now)).toBe(true);
    expect(linkIsLive({ state: 'approved', link_expires_at: '2026-11-22T10:00:00Z' }, now)).toBe(false);
    expect(linkIsLive({ state: 'pending', link_expires_at: null }, now)).toBe(false);
    expect(linkIsLive({ state: 'approved', link_expires_at: null }, now)).toBe(false);
  });

  it('accepts whole numbers within bounds only', () => {
    const b = { min: 5, max: 10080 };
    expect(within(5, b)).toBe(true);
    expect(within(10080, b)).toBe(true);
    expect(within(4, b)).toBe(false);
    expect(within(90.5, b)).toBe(false);
    expect(within('90', b)).toBe(false);
    expect(within(undefined, b)).toBe(false);
  });
});
