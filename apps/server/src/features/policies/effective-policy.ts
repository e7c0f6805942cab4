import { type EffectivePolicyItem, entryApplies, POLICY_CATALOGUE, type TeamPolicy } from '@latchkey/contracts';
import type { OverrideGroup } from './policies.repository.ts';

/** What decides every member's policy: the team policy and the overriding groups, highest priority first. */
export interface PolicyWorld {
  team: TeamPolicy;
  groups: OverrideGroup[];
}

/**
 * THE effective policy of one member, key by key:
 * 1. the enforced value of the member's highest-priority group that sets the key (lowest
 *    priority_level; ties by name), so a group overrides the team policy;
 * 2. else the team policy's value, when its include / exclude scoping applies to the member;
 * 3. else a not-enforced group value (a default the member may change in the apps), by priority;
 * 4. else the catalogue default. Readonly keys are always the product's value.
 */
export function resolveEffectivePolicy(
  world: PolicyWorld,
  email: string,
  memberGroupIds: readonly string[],
): EffectivePolicyItem[] {
  const mine = world.groups.filter((g) => memberGroupIds.includes(g.id));
  return POLICY_CATALOGUE.map((def): EffectivePolicyItem => {
    const base = { key: def.key, group_id: null, group_name: null };
    if (def.readonly) return { ...base, value: def.default, source: 'product', enforced: true };
    const fromGroup = (enforced: boolean) =>
      mine.find((g) => def.is_editable && def.key in g.policy_json && Boolean(g.not_enforced_json[def.key]) !== enforced);
    const enforcedGroup = fromGroup(true);
    if (enforcedGroup) {
      const value = enforcedGroup.policy_json[def.key] as EffectivePolicyItem['value'];
      return { ...base, value, source: 'group', group_id: enforcedGroup.id, group_name: enforcedGroup.name, enforced: true };
    }
    const entry = world.team[def.key];
    if (entry && entryApplies(entry, email)) return { ...base, value: entry.policy, source: 'team', enforced: true };
    const suggested = fromGroup(false);
    if (suggested) {
      const value = suggested.policy_json[def.key] as EffectivePolicyItem['value'];
      return { ...base, value, source: 'group', group_id: suggested.id, group_name: suggested.name, enforced: false };
    }
    return { ...base, value: def.default, source: 'default', enforced: false };
  });
}

/** Whether two effective policies would make a member's apps behave differently. */
export function samePolicy(a: EffectivePolicyItem[], b: EffectivePolicyItem[]): boolean {
  return a.every((item, i) => item.value === b[i]?.value && item.enforced === b[i]?.enforced);
}
