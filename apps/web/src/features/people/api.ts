import type { MemberFilters } from '@latchkey/contracts/client';
import { DEFAULT_PAGE_SIZE } from '@latchkey/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { consoleKeys } from '../console/index.ts';

/** Query keys of the people screens; the team slug scopes the cache. */
export const peopleKeys = {
  all: (team: string) => ['people', team] as const,
  notification: (team: string) => [...peopleKeys.all(team), 'notification'] as const,
  activity: (team: string) => [...peopleKeys.all(team), 'activity'] as const,
  provisioning: (team: string) => [...peopleKeys.all(team), 'provisioning'] as const,
  licences: (team: string) => [...peopleKeys.all(team), 'licences'] as const,
  authType: (team: string) => [...peopleKeys.all(team), 'auth-type'] as const,
  members: (team: string) => [...peopleKeys.all(team), 'members'] as const,
  page: (team: string, filters: MemberFilters, after: string | null) =>
    [...peopleKeys.members(team), 'page', filters, after] as const,
  count: (team: string, filters: MemberFilters) => [...peopleKeys.members(team), 'count', filters] as const,
};

const useTeamSlug = () => useSession()?.team_slug ?? '';

export const useNotificationQuery = () =>
  useQuery({ queryKey: peopleKeys.notification(useTeamSlug()), queryFn: () => call('notification', {}) });
export const useActivityQuery = () =>
  useQuery({ queryKey: peopleKeys.activity(useTeamSlug()), queryFn: () => call('dashboardActivity', {}) });
export const useProvisioningQuery = () =>
  useQuery({
    queryKey: peopleKeys.provisioning(useTeamSlug()),
    queryFn: async () => (await call('dashboardProvisioning', {})).data,
  });
export const useLicenceSummaryQuery = () =>
  useQuery({ queryKey: peopleKeys.licences(useTeamSlug()), queryFn: () => call('licenceSummary', {}) });
export const useAuthTypeQuery = () =>
  useQuery({ queryKey: peopleKeys.authType(useTeamSlug()), queryFn: () => call('authType', {}) });

export const useMembersPageQuery = (filters: MemberFilters, after: string | null) =>
  useQuery({
    queryKey: peopleKeys.page(useTeamSlug(), filters, after),
    queryFn: () => call('members', { ...filters, after, page_size: DEFAULT_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
export const useMembersCountQuery = (filters: MemberFilters) =>
  useQuery({
    queryKey: peopleKeys.count(useTeamSlug(), filters),
    queryFn: async () => (await call('membersCount', filters)).total,
  });

/** After a member change: the lists, the counts and the dashboard figures are stale. */
function useInvalidatePeople() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return () => {
    void client.invalidateQueries({ queryKey: peopleKeys.all(team) });
    void client.invalidateQueries({ queryKey: consoleKeys.team(team) });
  };
}

export type MemberAction =
  | { kind: 'invite'; emails: string[] }
  | { kind: 'resend'; emails: string[] }
  | { kind: 'assign' | 'revoke'; emails: string[] }
  | { kind: 'suspend' | 'restore'; emails: string[] }
  | { kind: 'remove'; emails: string[] };

export function useMemberActionMutation() {
  const invalidate = useInvalidatePeople();
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

export function useRenameTeamMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (team_name: string) => call('teamNameEdit', { team_name }),
    onSuccess: () => client.invalidateQueries({ queryKey: consoleKeys.all(team) }),
  });
}

/** Records a console interaction; failures are ignored (analytics never blocks the admin). */
export function trackInteraction(section: string, object: string, interaction_type = 'click'): void {
  void call('analyticsEvent', { interaction_type, object, section }).catch(() => undefined);
}

export const exportMembers = (filters: MemberFilters) => call('membersExport', filters);
