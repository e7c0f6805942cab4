import type { BenefitGrantType } from '@latchkey/contracts/client';

export interface Assignment {
  type: BenefitGrantType;
  groupIds: readonly string[];
}

/** Spec §4: groups chosen but empty count as unassigned. */
export const normalise = (a: Assignment): Assignment =>
  a.type === 'groups' && a.groupIds.length === 0
    ? { type: 'none', groupIds: [] }
    : a.type === 'groups'
      ? a
      : { type: a.type, groupIds: [] };

export const sameAssignment = (a: Assignment, b: Assignment): boolean => {
  const x = normalise(a);
  const y = normalise(b);
  return x.type === y.type && x.groupIds.length === y.groupIds.length && x.groupIds.every((id) => y.groupIds.includes(id));
};

/** Groups that hold the benefit now and would lose it by the change (spec §5). */
export const groupsRemovedBy = (current: Assignment, next: Assignment): string[] => {
  if (current.type !== 'groups') return [];
  const kept = normalise(next);
  if (kept.type === 'all') return [];
  return current.groupIds.filter((id) => !kept.groupIds.includes(id));
};

/**
 * Spec §5 Family assign: disabled when nothing changed, the group list is empty (choosing groups)
 * or while loading.
 */
export const assignDisabled = (current: Assignment, next: Assignment, groupCount: number, loading: boolean): boolean =>
  loading || sameAssignment(current, next) || (next.type === 'groups' && (groupCount === 0 || next.groupIds.length === 0));
