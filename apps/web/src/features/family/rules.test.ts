import { describe, expect, test } from 'vitest';
import { assignDisabled, groupsRemovedBy, normalise, sameAssignment } from './rules.ts';

describe('family assignment rules (spec §4, §5)', () => {
  test('groups chosen but empty count as unassigned', () => {
    expect(normalise({ type: 'groups', groupIds: [] })).toEqual({ type: 'none', groupIds: [] });
    expect(sameAssignment({ type: 'groups', groupIds: [] }, { type: 'none', groupIds: [] })).toBe(true);
    expect(sameAssignment({ type: 'groups', groupIds: ['a', 'b'] }, { type: 'groups', groupIds: ['b', 'a'] })).toBe(true);
    expect(sameAssignment({ type: 'groups', groupIds: ['a'] }, { type: 'groups', groupIds: ['a', 'b'] })).toBe(false);
  });

  test('the groups a change removes', () => {
    const current = { type: 'groups' as const, groupIds: ['a', 'b'] };
    expect(groupsRemovedBy(current, { type: 'groups', groupIds: ['b', 'c'] })).toEqual(['a']);
    expect(groupsRemovedBy(current, { type: 'none', groupIds: [] })).toEqual(['a', 'b']);
    expect(groupsRemovedBy(current, { type: 'all', groupIds: [] })).toEqual([]);
    expect(groupsRemovedBy({ type: 'all', groupIds: [] }, { type: 'none', groupIds: [] })).toEqual([]);
  });

  test('assign is disabled when nothing changed, the group list is empty, or loading', () => {
    const none = { type: 'none' as const, groupIds: [] };
    expect(assignDisabled(none, { type: 'all', groupIds: [] }, 3, false)).toBe(false);
    expect(assignDisabled(none, none, 3, false)).toBe(true);
    expect(assignDisabled(none, { type: 'all', groupIds: [] }, 3, true)).toBe(true);
    expect(assignDisabled(none, { type: 'groups', groupIds: ['a'] }, 0, false)).toBe(true);
    expect(assignDisabled(none, { type: 'groups', groupIds: [] }, 3, false)).toBe(true);
    expect(assignDisabled(none, { type: 'groups', groupIds: ['a'] }, 3, false)).toBe(false);
  });
});
