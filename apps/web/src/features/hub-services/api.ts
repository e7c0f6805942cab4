import type { ApiMap, AuditField, EndpointInput, EndpointOutput } from '@latchkey/contracts/client';
import { DEFAULT_PAGE_SIZE } from '@latchkey/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { consoleKeys } from '../console/index.ts';

/** Query keys of the Hub service screens; the team slug scopes the cache. */
export const serviceKeys = {
  audit: (team: string) => ['audit', team] as const,
  sharing: (team: string) => ['sharing', team] as const,
  recovery: (team: string) => ['recovery', team] as const,
};

export const useTeamSlug = () => useSession()?.team_slug ?? '';

// ── security audit ──
export interface AuditQuery {
  page: number;
  field: AuditField;
  desc: boolean;
  search: string;
}

export function useAuditSummariesQuery(q: AuditQuery) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: [...serviceKeys.audit(team), 'list', q],
    queryFn: () =>
      call('auditSummaries', {
        team_slug: team,
        page: q.page,
        page_size: DEFAULT_PAGE_SIZE,
        ordering: { field_id: q.field, desc: q.desc },
        search_value: q.search,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useVaultSummaryQuery(summaryId: string) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: [...serviceKeys.audit(team), 'summary', summaryId],
    queryFn: () => call('auditSummary', { team_slug: team, summary_id: summaryId }),
    retry: false,
  });
}

export function useAuditPolicyQuery() {
  const team = useTeamSlug();
  return useQuery({
    queryKey: [...serviceKeys.audit(team), 'policy'],
    queryFn: async () => (await call('auditPolicy', {})).policy,
  });
}

// ── sharing ──
export type AuditSummaryRow = EndpointOutput<ApiMap['auditSummaries']>['results'][number];
export type SharingLimitsValue = EndpointOutput<ApiMap['sharingLimits']>;
export type ShareLinkRow = EndpointOutput<ApiMap['sharingLinks']>['results'][number];

export function useShareLinksQuery(page: number, search: string) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: [...serviceKeys.sharing(team), 'links', page, search],
    queryFn: () => call('sharingLinks', { team_slug: team, page, page_size: DEFAULT_PAGE_SIZE, search_value: search }),
    placeholderData: keepPreviousData,
  });
}

export function useSharingLimitsQuery() {
  const team = useTeamSlug();
  return useQuery({
    queryKey: [...serviceKeys.sharing(team), 'limits'],
    queryFn: () => call('sharingLimits', { team_slug: team }),
  });
}

/** A mutation on a Hub service whose screens all refresh afterwards. */
function useServiceMutation<K extends keyof ApiMap>(name: K, key: (team: string) => readonly unknown[]) {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (input: Omit<EndpointInput<ApiMap[K]>, 'team_slug'>) =>
      call(name, { team_slug: team, ...input } as EndpointInput<ApiMap[K]>),
    onSuccess: () => client.invalidateQueries({ queryKey: key(team) }),
  });
}

export const useRevokeSharesMutation = () => useServiceMutation('sharingRevoke', serviceKeys.sharing);
export const useUpdateSharingLimitsMutation = () => useServiceMutation('sharingLimitsUpdate', serviceKeys.sharing);

// ── recovery ──
export function useRecoveryRequestsQuery(page: number, state: 'pending' | 'approved' | undefined, search: string) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: [...serviceKeys.recovery(team), 'requests', page, state, search],
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
    queryKey: [...serviceKeys.recovery(team), 'admins', page, state, search],
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
    queryKey: [...serviceKeys.recovery(team), 'settings'],
    queryFn: () => call('recoverySettings', { team_slug: team }),
  });
}

export const useApproveRecoveryMutation = () => useServiceMutation('recoveryApprove', serviceKeys.recovery);
export const useDeleteRecoveryMutation = () => useServiceMutation('recoveryDelete', serviceKeys.recovery);
export const useCreateAdminRequestMutation = () => useServiceMutation('recoveryCreateAdminRequest', serviceKeys.recovery);
export const useRemoveRecoveryAdminMutation = () => useServiceMutation('recoveryRemoveAdmin', serviceKeys.recovery);
export const useLinkExpirationMutation = () => useServiceMutation('recoveryLinkExpiration', serviceKeys.recovery);
export const useRecoveryNotificationMutation = () => useServiceMutation('recoveryNotification', serviceKeys.recovery);

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
    queryKey: [...serviceKeys.recovery(team), 'admin-requests'],
    queryFn: async () => (await call('recoveryFetchAdminRequests', { team_slug: team })).requests,
  });
}

/** The recovery switch lives on the licence server; the sidebar and guard re-read the services after it. */
export function useRecoveryServiceMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (enable_recovery: boolean) => call('recoveryServiceUpdate', { enable_recovery }),
    onSuccess: () => client.invalidateQueries({ queryKey: consoleKeys.services(team) }),
  });
}

/** Team members whose email matches, to pick a recovery admin from (licence server). */
export function useMemberSuggestions(search: string) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: ['people', team, 'members', 'suggest', search],
    queryFn: async () => (await call('members', { search_value: search, page_size: 8 })).results.map((m) => m.email),
    enabled: search.length >= 2,
  });
}
