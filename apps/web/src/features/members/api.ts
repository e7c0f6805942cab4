import type { MemberFilters } from '@latchkey/contracts/client';
import { DEFAULT_PAGE_SIZE } from '@latchkey/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, callQuery } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { dashboardKeys } from '../dashboard/index.ts';
import { teamKeys } from '../team/index.ts';

/** Query keys of the members list; the team slug scopes the cache. */
export const memberKeys = {
  all: (team: string) => ['members', team] as const,
  members: (team: string) => [...memberKeys.all(team), 'members'] as const,
  page: (team: string, filters: MemberFilters, after: string | null) =>
    [...memberKeys.members(team), 'page', filters, after] as const,
  count: (team: string, filters: MemberFilters) => [...memberKeys.members(team), 'count', filters] as const,
};

export const useMembersPageQuery = (filters: MemberFilters, after: string | null) =>
  useQuery({
    queryKey: memberKeys.page(useTeamSlug(), filters, after),
    ...callQuery('members', { ...filters, after, page_size: DEFAULT_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
export const useMembersCountQuery = (filters: MemberFilters) =>
  useQuery({
    queryKey: memberKeys.count(useTeamSlug(), filters),
    ...callQuery('membersCount', filters, (answer) => answer.total),
  });

/** After a member change: the lists, the counts and the dashboard figures are stale. */
function useInvalidateMembers() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return () => {
    void client.invalidateQueries({ queryKey: memberKeys.all(team) });
    void client.invalidateQueries({ queryKey: dashboardKeys.all(team) });
    void client.invalidateQueries({ queryKey: teamKeys.team(team) });
  };
}

export type MemberAction =
  | { kind: 'invite'; emails: string[] }
  | { kind: 'resend'; emails: string[] }
  | { kind: 'assign' | 'revoke'; emails: string[] }
  | { kind: 'suspend' | 'restore'; emails: string[] }
  | { kind: 'remove'; emails: string[] };

export function useMemberActionMutation() {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: async (action: MemberAction) => {
      const { emails } = action;
      switch (action.kind) {
        case 'invite':
          return call('membersInvite', { emails });
        case 'resend':
          return call('membersResendInvite', { emails });
        case 'assign':
        case 'revoke':
          return call('membersLicence', { emails, action: action.kind });
        case 'suspend':
        case 'restore':
          return call('membersStatus', { emails, action: action.kind });
        case 'remove':
          return call('membersRemove', { emails });
      }
    },
    onSuccess: invalidate,
  });
}

/** The members matching the filters as CSV, asked for when the admin exports them. */
export const useExportMembersMutation = () =>
  useMutation({ mutationFn: (filters: MemberFilters) => call('membersExport', filters) });
