import type { ApprovalPolicy } from '@latchkey/contracts';
import type { ApiMap, EndpointOutput } from '@latchkey/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { PAGE_SIZE } from '../../lib/paging.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

export type ApprovalView = 'pending_for_me' | 'mine' | 'all';
export type ApprovalRequest = EndpointOutput<ApiMap['approval']>;

/** Query keys of the approvals screens; the team slug scopes the cache. */
export const approvalKeys = {
  all: (team: string) => ['approvals', team] as const,
  list: (team: string, view: ApprovalView, page: number) => [...approvalKeys.all(team), 'list', view, page] as const,
  count: (team: string) => [...approvalKeys.all(team), 'count'] as const,
  policy: (team: string) => [...approvalKeys.all(team), 'policy'] as const,
};

/** How often the top bar asks whether something waits for this admin (a request made elsewhere). */
const COUNT_REFRESH_MS = 60_000;

export const useApprovalsQuery = (view: ApprovalView, page: number) =>
  useQuery({
    queryKey: approvalKeys.list(useTeamSlug(), view, page),
    queryFn: () => call('approvals', { view, page, page_size: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

/** The caller's own requests (first page, the newest), for the notice on the screen each was made on. */
export const useMyRecentRequestsQuery = (enabled: boolean) =>
  useQuery({
    queryKey: approvalKeys.list(useTeamSlug(), 'mine', 0),
    queryFn: async () => (await call('approvals', { view: 'mine', page: 1, page_size: 100 })).results,
    enabled,
    staleTime: 30_000,
  });

/** Pending requests this admin may decide: the top bar's count. */
export const useWaitingCountQuery = (enabled: boolean) =>
  useQuery({
    queryKey: approvalKeys.count(useTeamSlug()),
    queryFn: async () => (await call('approvalsCount', {})).pending_for_me,
    enabled,
    refetchInterval: COUNT_REFRESH_MS,
    staleTime: 30_000,
  });

export const useApprovalPolicyQuery = (enabled = true) =>
  useQuery({ queryKey: approvalKeys.policy(useTeamSlug()), queryFn: () => call('approvalPolicy', {}), enabled });

/** After a decision, any approvals view is stale, and so may be the screen the change was for. */
function useInvalidateAll() {
  const client = useQueryClient();
  return () => void client.invalidateQueries();
}

export function useDecideMutation() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: { id: string; decision: 'approve' | 'reject'; comment: string }) => call('approvalDecide', input),
    onSuccess: invalidate,
  });
}

export function useWithdrawMutation() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (input: { id: string; comment: string }) => call('approvalWithdraw', input),
    onSuccess: invalidate,
  });
}

export function useSaveApprovalPolicyMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (policy: ApprovalPolicy) => call('approvalPolicyUpdate', { policy }),
    onSettled: () => void client.invalidateQueries({ queryKey: approvalKeys.all(team) }),
  });
}
