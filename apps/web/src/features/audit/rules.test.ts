import { describe, expect, it } from 'vitest';
import { scoreLevel } from './rules.ts';

describe('security audit rules', () => {
  it('grades a vault score against the policy threshold', () => {
    expect(scoreLevel(59, 60)).toBe('at_risk');
    expect(scoreLevel(60, 60)).toBe('fair');
    expect(scoreLevel(79, 60)).toBe('fair');
    expect(scoreLevel(80, 60)).toBe('healthy');
    expect(scoreLevel(85, 90)).toBe('at_risk');
  });
});
