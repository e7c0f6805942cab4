import type { EndpointArgs, FamilyBenefit, familyBenefitUpdateEndpoint } from '@latchkey/contracts';
import { AppError, type Db, type Queryable } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { groupLookupsRepository } from '../groups/index.ts';
import { familyBenefitRepository, recordMemberEvents } from '../members/index.ts';
import { familyRepository as repo } from './family.repository.ts';

/** The groups the assignment names, by name. */
const benefitGroups = async (q: Queryable, teamId: string) =>
  groupLookupsRepository.named(q, teamId, await repo.groupIds(q, teamId));

async function current(q: Queryable, teamId: string): Promise<FamilyBenefit> {
  const grantType = await repo.grantType(q, teamId);
  const groups = grantType === 'groups' ? await benefitGroups(q, teamId) : [];
  return {
    // Spec §4: groups chosen but empty count as unassigned.
    benefit_grant_type: grantType === 'groups' && groups.length === 0 ? 'none' : grantType,
    benefit_groups: groups,
    members_with_benefit: await familyBenefitRepository.holders(q, teamId),
  };
}

/**
 * Gives the benefit to the members the assignment now covers and takes it from the others, each
 * change recorded per member: after an assignment change, and after a group's members change.
 */
export async function applyFamilyBenefit(tx: Queryable, teamId: string, actorId: string, reason: Record<string, unknown>) {
  const grantType = await repo.grantType(tx, teamId);
  const entitled =
    grantType === 'all'
      ? 'all'
      : grantType === 'groups'
        ? await groupLookupsRepository.memberIds(tx, await repo.groupIds(tx, teamId))
        : [];
  const { granted, removed } = await familyBenefitRepository.apply(tx, teamId, entitled);
  await recordMemberEvents(tx, teamId, actorId, 'family_benefit_granted', granted, reason);
  await recordMemberEvents(tx, teamId, actorId, 'family_benefit_removed', removed, reason);
  return { granted, removed };
}

export function createFamilyService(db: Db) {
  return {
    current: (caller: Caller) => current(db, caller.team.id),

    /** One transaction: the assignment, its groups and every member's benefit change together. */
    async update(caller: Caller, input: EndpointArgs<typeof familyBenefitUpdateEndpoint>) {
      if (input.team !== undefined && input.team !== caller.team.slug) {
        throw new AppError('forbidden', 'The team is not the signed-in team.', 403).shows('errors.forbidden');
      }
      const ids = input.benefit_grant_type === 'groups' ? [...new Set(input.team_group_ids)] : [];
      // Groups chosen but empty is no assignment.
      const grantType = input.benefit_grant_type === 'groups' && ids.length === 0 ? 'none' : input.benefit_grant_type;
      return db.transaction(async (tx) => {
        const beforeType = await repo.grantType(tx, caller.team.id, true);
        const before = beforeType === 'groups' ? await benefitGroups(tx, caller.team.id) : [];
        const found = await groupLookupsRepository.named(tx, caller.team.id, ids);
        if (found.length !== ids.length) {
          throw new AppError('group_not_found', 'A chosen group no longer exists; reload the groups.', 404).shows(
            'family.error.group_gone',
          );
        }
        await repo.save(tx, caller.team.id, grantType, ids);
        const { granted, removed } = await applyFamilyBenefit(tx, caller.team.id, caller.userId, {
          benefit_grant_type: grantType,
        });
        const kept = new Set(grantType === 'groups' ? ids : []);
        return {
          ...(await current(tx, caller.team.id)),
          granted: granted.length,
          removed: removed.length,
          removed_groups: before.filter((g) => !kept.has(g.id)),
        };
      });
    },
  };
}
