import { NO_PRIORITY } from '@latchkey/contracts/client';
import { describe, expect, test } from 'vitest';
import { draftErrors, groupDraft, groupUpdate, teamDraft, teamPatch } from './draft.ts';

describe('policy drafts', () => {
  test("the team patch holds only changed keys; 'auto' removes a key", () => {
    const saved = teamDraft({ 'tfa.required': { policy: true }, 'mp.min_length': { policy: 14 } });
    expect(saved['mp.require_digits']?.value).toBe('auto');
    expect(saved['autolock.minutes']?.value).toBe(15);
    const draft = {
      ...saved,
      'tfa.required': { value: 'auto' as const, include: [], exclude: [] },
      'export.allowed': { value: true, include: ['a@x.example'], exclude: [] },
    };
    expect(teamPatch(saved, draft)).toEqual({
      'tfa.required': { policy: 'auto' },
      'export.allowed': { policy: true, include: ['a@x.example'] },
    });
  });

  test('an empty group policy sends no priority (the server resets it to 999999)', () => {
    const draft = groupDraft({ 'tfa.required': true }, { 'tfa.required': true }, 3);
    expect(groupUpdate('g', draft)).toEqual({
      group_id: 'g',
      policy_json: { 'tfa.required': true },
      not_enforced_json: { 'tfa.required': true },
      priority_level: 3,
    });
    const cleared = { ...draft, entries: { ...draft.entries, 'tfa.required': { value: 'auto' as const, not_enforced: true } } };
    expect(groupUpdate('g', cleared)).toEqual({ group_id: 'g', policy_json: {}, not_enforced_json: {} });
    expect(groupDraft({}, {}, NO_PRIORITY).priority).toBe('');
  });

  test('errors block saving: mp.min_length 1001, an emptied required number', () => {
    expect(draftErrors({ 'mp.min_length': 1001 }, 'team')['mp.min_length']).toMatchObject({
      key: 'policy.error.range',
      values: { min: 8, max: 1000 },
    });
    expect(draftErrors({ 'mp.min_length': '' }, 'team')['mp.min_length']?.key).toBe('this field is required');
    expect(draftErrors({ 'mp.min_length': 1000, 'tfa.required': 'auto' }, 'team')).toEqual({});
  });
});
