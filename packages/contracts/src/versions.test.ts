import { describe, expect, it } from 'vitest';
import { compareVersions, hubTooOld } from './versions.ts';

describe('versions', () => {
  it.each([
    ['2.10', '2.9', 1],
    ['1.09', '1.9', 0],
    ['2.0', '2', 0],
    ['2.0.1', '2.1', -1],
  ])('compares %s with %s', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
  });

  it('knows which hub is too old for a feature', () => {
    expect(hubTooOld('2.0.5', 'audit')).toBe(true);
    expect(hubTooOld('2.1.0', 'audit')).toBe(false);
    expect(hubTooOld(null, 'audit')).toBe(false);
  });
});
