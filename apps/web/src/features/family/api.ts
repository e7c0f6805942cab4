import { type BenefitGrantType, GROUPS_PAGE_SIZE } from '@latchkey/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

/** Query keys of the family plan screen; the team slug scopes the cache. */
const familyKeys = {
  all: (team: string) => ['family', team] as const,
  benefit: (team: string) => [...familyKeys.all(team), 'benefit'] as const,
  groups: (team: string) => [...familyKeys.all(team), 'groups'] as const,
};

export const useFamilyBenefitQuery = () =>
  useQuery({ queryKey: familyKeys.benefit(useTeamSlug()), queryFn: () => call('familyBenefit', {}) });

/** Spec §9: the group list is fetched with the huge page size, for the picker to search in. */
export const useBenefitGroupsQuery = (enabled: boolean) =>
  useQuery({
    queryKey: familyKeys.groups(useTeamSlug()),
    queryFn: async () =>
      (await call('groups', { page: 1, page_size: GROUPS_PAGE_SIZE, filters: {} })).results.map((g) => ({
        id: g.id,
        name: g.name,
      })),
    enabled,
  });

export function useFamilyBenefitMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (input: { benefit_grant_type: BenefitGrantType; team_group_ids: string[] }) =>
      call('familyBenefitUpdate', { ...input, team }),
    onSuccess: (data) => {
      client.setQueryData(familyKeys.benefit(team), {
        benefit_grant_type: data.benefit_grant_type,
        benefit_groups: data.benefit_groups,
        members_with_benefit: data.members_with_benefit,
      });
    },
    onError: () => void client.invalidateQueries({ queryKey: familyKeys.all(team) }),
  });
}
