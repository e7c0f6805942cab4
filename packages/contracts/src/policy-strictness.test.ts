import { describe, expect, test } from 'vitest';
import { POLICY_CATALOGUE } from './policy-catalogue.ts';
import { isLooser } from './policy-strictness.ts';

describe('which policy changes relax a rule', () => {
  test.each([
    ['mp.min_length', 14, 12, true],
    ['mp.min_length', 12, 14, false],
    ['autolock.minutes', 5, 60, true],
    ['autolock.minutes', 60, 5, false],
    ['tfa.required', true, false, true],
    ['tfa.required', false, true, false],
    ['export.allowed', false, true, true],
    ['biometrics.allowed', true, false, false],
    ['sharing.scope', 'team_only', 'anyone', true],
    ['sharing.scope', 'team_only', 'none', false],
    ['tfa.methods', 'security_key', 'any', true],
    // Expiry: 0 never expires, the loosest; otherwise fewer days is stricter.
    ['mp.expiry_days', 90, 0, true],
    ['mp.expiry_days', 0, 90, false],
    ['mp.expiry_days', 30, 90, true],
    ['mp.expiry_days', 90, 30, false],
  ] as const)('%s: %s → %s relaxes: %s', (key, before, after, looser) => {
    expect(isLooser(key, before, after)).toBe(looser);
  });

  test('the same value never relaxes; an unknown key never does', () => {
    for (const p of POLICY_CATALOGUE) expect(isLooser(p.key, p.default, p.default), p.key).toBe(false);
    expect(isLooser('no.such.key', 1, 0)).toBe(false);
  });

  test('every editable policy of the catalogue has a direction', () => {
    const loosens = (key: string, values: readonly (boolean | number | string)[]) =>
      values.some((a) => values.some((b) => isLooser(key, a, b)));
    const samples = (p: (typeof POLICY_CATALOGUE)[number]) =>
      p.type.kind === 'boolean' ? [true, false] : p.type.kind === 'integer' ? [p.type.min, p.type.max] : p.type.values;
    const without = POLICY_CATALOGUE.filter((p) => !p.readonly && !loosens(p.key, samples(p))).map((p) => p.key);
    expect(without).toEqual([]);
  });
});
