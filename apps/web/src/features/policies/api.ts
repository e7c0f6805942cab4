import type { ApiMap, EndpointInput } from '@latchkey/contracts/client';
import { DEFAULT_PAGE_SIZE } from '@latchkey/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { teamKeys } from '../team/index.ts';

/** Query keys of the policy screens; the team slug scopes the cache. */
const policyKeys = {
  all: (team: string) => ['policies', team] as const,
  team: (team: string) => [...policyKeys.all(team), 'team'] as const,
  groups: (team: string) => [...policyKeys.all(team), 'groups'] as const,
  group: (team: string, id: string) => [...policyKeys.all(team), 'group', id] as const,
  history: (team: string, page: number) => [...policyKeys.all(team), 'history', page] as const,
  change: (team: string, id: string) => [...policyKeys.all(team), 'change', id] as const,
  impact: (team: string, change: unknown) => [...policyKeys.all(team), 'impact', change] as const,
  effective: (team: string, email: string) => [...policyKeys.all(team), 'effective', email] as const,
  memberPicker: (team: string, search: string) => [...policyKeys.all(team), 'member-picker', search] as const,
};

type TeamPatch = EndpointInput<ApiMap['policyTeamUpdate']>['policy_json'];
type GroupUpdate = EndpointInput<ApiMap['policyGroupUpdate']>;
type ImpactInput = EndpointInput<ApiMap['policyImpact']>;

/** Up to 20 members matching a search, to pick whose effective policy to show. */
export const useMemberPickerQuery = (search: string) =>
  useQuery({
    queryKey: policyKeys.memberPicker(useTeamSlug(), search),
    queryFn: async () => (await call('members', { search_value: search || undefined, page_size: 20 })).results,
  });

export const useTeamPolicyQuery = () =>
  useQuery({ queryKey: policyKeys.team(useTeamSlug()), queryFn: () => call('policyTeam', {}) });

export const usePolicyGroupsQuery = () =>
  useQuery({ queryKey: policyKeys.groups(useTeamSlug()), queryFn: async () => (await call('policyGroups', {})).groups });

/** A group's policy; the server's 'not_found' (no policy yet) reads as an empty one (spec §8). */
export const useGroupPolicyQuery = (groupId: string | null) =>
  useQuery({
    queryKey: policyKeys.group(useTeamSlug(), groupId ?? ''),
    enabled: Boolean(groupId),
    queryFn: async () => {
      const reply = await call('policyGroup', { group_id: groupId as string });
      return reply.code === 'ok'
        ? { group: reply.group, policy_json: reply.policy_json, not_enforced_json: reply.not_enforced_json }
        : { group: reply.group, policy_json: {}, not_enforced_json: {} };
    },
  });

export const usePolicyHistoryQuery = (page: number) =>
  useQuery({
    queryKey: policyKeys.history(useTeamSlug(), page),
    queryFn: () => call('policyHistory', { page, page_size: DEFAULT_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

export const usePolicyChangeQuery = (id: string) =>
  useQuery({ queryKey: policyKeys.change(useTeamSlug(), id), queryFn: () => call('policyHistoryDiff', { id }) });

/** "N members would be affected", asked of the server while there is a valid unsaved change. */
export const useImpactQuery = (change: ImpactInput | null) =>
  useQuery({
    queryKey: policyKeys.impact(useTeamSlug(), change),
    enabled: change !== null,
    queryFn: () => call('policyImpact', change as ImpactInput),
    staleTime: 5_000,
  });

export const useEffectivePolicyQuery = (email: string | null) =>
  useQuery({
    queryKey: policyKeys.effective(useTeamSlug(), email ?? ''),
    enabled: Boolean(email),
    queryFn: () => call('policyEffective', { email: email as string }),
  });

/** After any policy change: every policy view and the team's policy flag are stale. */
function useInvalidatePolicies() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return async () => {
    await client.invalidateQueries({ queryKey: policyKeys.all(team) });
    void client.invalidateQueries({ queryKey: teamKeys.team(team) });
  };
}

export function useSaveTeamPolicyMutation() {
  const invalidate = useInvalidatePolicies();
  return useMutation({
    mutationFn: (patch: TeamPatch) => call('policyTeamUpdate', { policy_json: patch }),
    onSuccess: invalidate,
  });
}

export function useSaveGroupPolicyMutation() {
  const invalidate = useInvalidatePolicies();
  return useMutation({ mutationFn: (update: GroupUpdate) => call('policyGroupUpdate', update), onSuccess: invalidate });
}

export function useRestoreMutation() {
  const invalidate = useInvalidatePolicies();
  return useMutation({ mutationFn: (id: string) => call('policyHistoryRestore', { id }), onSuccess: invalidate });
}
