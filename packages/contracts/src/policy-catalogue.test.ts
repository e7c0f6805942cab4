import { describe, expect, test } from 'vitest';
import { MP_MIN_LENGTH_CAP } from './constants.ts';
import { GroupPolicySchema, TeamPolicyPatch } from './policies.ts';
import { diffPolicyMaps, entryApplies, POLICY_CATALOGUE, policyDefinition, policyValueProblem } from './policy-catalogue.ts';

describe('policy catalogue', () => {
  test('keys are unique and every default is an allowed value', () => {
    expect(new Set(POLICY_CATALOGUE.map((p) => p.key)).size).toBe(POLICY_CATALOGUE.length);
    for (const p of POLICY_CATALOGUE.filter((d) => !d.readonly)) {
      expect(policyValueProblem(p.key, p.default), p.key).toBeNull();
    }
  });

  test('covers the areas admins expect', () => {
    for (const key of [
      'mp.min_length',
      'tfa.required',
      'autolock.minutes',
      'vault.personal_allowed',
      'sharing.scope',
      'export.allowed',
      'import.allowed',
      'autofill.enabled',
      'biometrics.allowed',
      'cloud_sync.enabled',
      'generator.length',
    ]) {
      expect(policyDefinition(key), key).toBeDefined();
    }
  });

  test('mp.min_length is capped at 1000 (spec §5)', () => {
    expect(MP_MIN_LENGTH_CAP).toBe(1000);
    expect(policyValueProblem('mp.min_length', 1000)).toBeNull();
    expect(policyValueProblem('mp.min_length', 1001)).toMatchObject({ key: 'policy.error.range', values: { max: 1000 } });
    expect(policyValueProblem('mp.min_length', 12.5)?.key).toBe('policy.error.range');
    expect(policyValueProblem('mp.min_length', '12')?.key).toBe('policy.error.range');
  });

  test('types, choices, readonly and unknown keys are checked', () => {
    expect(policyValueProblem('tfa.required', 'yes')?.key).toBe('policy.error.boolean');
    expect(policyValueProblem('sharing.scope', 'everyone')?.key).toBe('policy.error.choice');
    expect(policyValueProblem('sharing.scope', 'none')).toBeNull();
    expect(policyValueProblem('vault.encryption', 'aes_256_gcm')?.key).toBe('policy.error.readonly');
    expect(policyValueProblem('no.such', true)?.key).toBe('policy.error.unknown');
  });

  test("team patch: 'auto' removes a key, but never a non-removable one", () => {
    expect(TeamPolicyPatch.safeParse({ 'tfa.required': { policy: 'auto' } }).success).toBe(true);
    const refused = TeamPolicyPatch.safeParse({ 'mp.min_length': { policy: 'auto' } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['mp.min_length']);
    expect(TeamPolicyPatch.safeParse({ 'mp.min_length': { policy: 1001 } }).success).toBe(false);
  });

  test('group policies may only override editable keys', () => {
    expect(GroupPolicySchema.safeParse({ 'tfa.required': true }).success).toBe(true);
    expect(GroupPolicySchema.safeParse({ 'cloud_sync.enabled': false }).success).toBe(false);
    expect(GroupPolicySchema.safeParse({ 'vault.encryption': 'aes_256_gcm' }).success).toBe(false);
  });

  test('include limits an entry to its members; exclude spares members (case-insensitive)', () => {
    const entry = { policy: true, include: ['A@x.example', 'b@x.example'], exclude: ['b@x.example'] };
    expect(entryApplies(entry, 'a@x.example')).toBe(true);
    expect(entryApplies(entry, 'b@x.example')).toBe(false);
    expect(entryApplies(entry, 'c@x.example')).toBe(false);
    expect(entryApplies({ policy: true, exclude: ['c@x.example'] }, 'd@x.example')).toBe(true);
  });

  test('the diff lists added, removed and changed keys in catalogue order', () => {
    const changes = diffPolicyMaps(
      { 'tfa.required': false, 'mp.min_length': 12, 'export.allowed': true },
      { 'tfa.required': true, 'mp.min_length': 12, 'autolock.minutes': 5 },
    );
    expect(changes).toEqual([
      { key: 'tfa.required', kind: 'changed', before: false, after: true },
      { key: 'autolock.minutes', kind: 'added', before: null, after: 5 },
      { key: 'export.allowed', kind: 'removed', before: true, after: null },
    ]);
  });
});
