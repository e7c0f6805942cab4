import type { ApiMap, EndpointOutput } from '@latchkey/contracts/client';
import { DEFAULT_PAGE_SIZE } from '@latchkey/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useServiceMutation } from '../../lib/service-mutation.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { memberKeys } from '../members/index.ts';
import { teamKeys } from '../team/index.ts';

/** Query keys of the recovery screens; the team slug scopes the cache. */
const recoveryKeys = {
  all: (team: string) => ['recovery', team] as const,
  requests: (team: string, page: number, state: string | undefined, search: string) =>
    [...recoveryKeys.all(team), 'requests', page, state, search] as const,
  admins: (team: string, page: number, state: string | undefined, search: string) =>
    [...recoveryKeys.all(team), 'admins', page, state, search] as const,
  settings: (team: string) => [...recoveryKeys.all(team), 'settings'] as const,
  adminRequests: (team: string) => [...recoveryKeys.all(team), 'admin-requests'] as const,
};
export function useRecoveryRequestsQuery(page: number, state: 'pending' | 'approved' | undefined, search: string) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: recoveryKeys.requests(team, page, state, search),
    queryFn: () =>
      call('recoveryRequests', {
        team_slug: team,
        page,
        page_size: DEFAULT_PAGE_SIZE,
        search_value: search,
        ...(state ? { state } : {}),
      }),
    placeholderData: keepPreviousData,
  });
}

export function useRecoveryAdminsQuery(page: number, state: 'pending' | 'active' | undefined, search: string) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: recoveryKeys.admins(team, page, state, search),
    queryFn: () =>
      call('recoveryAdmins', {
        team_slug: team,
        page,
        page_size: DEFAULT_PAGE_SIZE,
        search_email: search,
        ...(state ? { state } : {}),
      }),
    placeholderData: keepPreviousData,
  });
}

export function useRecoverySettingsQuery() {
  const team = useTeamSlug();
  return useQuery({
    queryKey: recoveryKeys.settings(team),
    queryFn: () => call('recoverySettings', { team_slug: team }),
  });
}

export const useApproveRecoveryMutation = () => useServiceMutation('recoveryApprove', recoveryKeys.all);
export const useDeleteRecoveryMutation = () => useServiceMutation('recoveryDelete', recoveryKeys.all);
export const useCreateAdminRequestMutation = () => useServiceMutation('recoveryCreateAdminRequest', recoveryKeys.all);
export const useRemoveRecoveryAdminMutation = () => useServiceMutation('recoveryRemoveAdmin', recoveryKeys.all);
export const useLinkExpirationMutation = () => useServiceMutation('recoveryLinkExpiration', recoveryKeys.all);
export const useRecoveryNotificationMutation = () => useServiceMutation('recoveryNotification', recoveryKeys.all);

export function useKeyVerify() {
  const team = useTeamSlug();
  return useMutation({ mutationFn: (emails: string[]) => call('userKeyVerify', { team_slug: team, emails }) });
}

export function useSecretVerify() {
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (a: { email: string; uid: string }) => call('memberSecretVerify', { team_slug: team, ...a }),
  });
}

export type RecoveryRequestRow = EndpointOutput<ApiMap['recoveryRequests']>['results'][number];
export type RecoveryAdminRow = EndpointOutput<ApiMap['recoveryAdmins']>['results'][number];

export function useAdminRequestsQuery() {
  const team = useTeamSlug();
  return useQuery({
    queryKey: recoveryKeys.adminRequests(team),
    queryFn: async () => (await call('recoveryFetchAdminRequests', { team_slug: team })).requests,
  });
}

/** The recovery switch lives on the licence server; the sidebar and guard re-read the services after it. */
export function useRecoveryServiceMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (enable_recovery: boolean) => call('recoveryServiceUpdate', { enable_recovery }),
    onSuccess: () => client.invalidateQueries({ queryKey: teamKeys.services(team) }),
  });
}

/** Team members whose email matches, to pick a recovery admin from (licence server). */
export function useMemberSuggestions(search: string) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: [...memberKeys.members(team), 'suggest', search],
    queryFn: async () => (await call('members', { search_value: search, page_size: 8 })).results.map((m) => m.email),
    enabled: search.length >= 2,
  });
}
