import type { ApiMap, EndpointOutput, Scope } from '@latchkey/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { ApprovalRequired } from '../../lib/api-error.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

/** Query keys of the administrators screen; the team slug scopes the cache. */
const adminKeys = {
  all: (team: string) => ['admins', team] as const,
  list: (team: string, search: string) => [...adminKeys.all(team), search] as const,
};

export type Admin = EndpointOutput<ApiMap['adminMembers']>['admins'][number];

/** The console's administrators whose name or email matches `search` (all when empty). */
export const useAdminsQuery = (search: string) =>
  useQuery({
    queryKey: adminKeys.list(useTeamSlug(), search),
    queryFn: () => call('adminMembers', search ? { search_value: search } : {}),
  });

/** After any change the administrators list is read again. */
function useInvalidateAdmins() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return () => void client.invalidateQueries({ queryKey: adminKeys.all(team) });
}

/** Adds an administrator with these scopes (an invitation when the email has no account yet). */
export function useAddAdminMutation() {
  const invalidate = useInvalidateAdmins();
  return useMutation({
    mutationFn: ({ email, scopes }: { email: string; scopes: Scope[] }) =>
      call('adminAdd', { action: 'add_admin', email: email.trim(), scopes }),
    onSuccess: invalidate,
  });
}

export type AdminChange = { kind: 'remove' | 'reset' | 'cancel'; email: string; scopes: Scope[] };

/** Removes an administrator (or cancels an invitation), or resets their authentication. */
export function useAdminChangeMutation() {
  const invalidate = useInvalidateAdmins();
  return useMutation({
    mutationFn: (change: AdminChange) =>
      change.kind !== 'reset'
        ? call('adminRemove', { action: 'remove_admin', email: change.email, scopes: change.scopes })
        : call('adminAuthReset', { email: change.email, reset_auth: true }),
    onSuccess: invalidate,
  });
}

// ── Just-in-time admin rights ──

const elevationKeys = {
  mine: (team: string) => ['elevations', team] as const,
};

export type MyElevations = EndpointOutput<ApiMap['adminElevations']>;
export type Elevation = MyElevations['elevations'][number];

/** Polls while an elevation waits for approval or runs: its start and its end change the admin's scopes. */
const ELEVATION_POLL_MS = 5_000;

/** The team's just-in-time setting, what the signed-in admin may elevate to, and their elevations. */
export const useMyElevationsQuery = () =>
  useQuery({
    queryKey: elevationKeys.mine(useTeamSlug()),
    queryFn: () => call('adminElevations', {}),
    refetchInterval: (query) => (query.state.data?.elevations.some((e) => e.status !== 'ended') ? ELEVATION_POLL_MS : false),
  });

function useInvalidateElevations() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return () => {
    void client.invalidateQueries({ queryKey: elevationKeys.mine(team) });
    void client.invalidateQueries({ queryKey: adminKeys.all(team) });
  };
}

/** `approval_required`: the call answered 202 and another super admin decides (features/approvals). */
export type ElevationReply = EndpointOutput<ApiMap['adminElevationRequest']> | { code: 'approval_required'; request_id: string };

/**
 * For the calls where waiting for another super admin is the usual answer (an elevation, a scope
 * made just in time): the 202 the API client throws for every held change, as the reply it is here.
 */
async function heldAsReply<T>(made: Promise<T>): Promise<T | { code: 'approval_required'; request_id: string }> {
  try {
    return await made;
  } catch (error) {
    if (error instanceof ApprovalRequired) return { code: 'approval_required', request_id: error.requestId };
    throw error;
  }
}

export function useRequestElevationMutation() {
  const invalidate = useInvalidateElevations();
  return useMutation({
    mutationFn: (input: { scope: Scope; minutes: number; reason: string }): Promise<ElevationReply> =>
      heldAsReply(call('adminElevationRequest', input)),
    onSuccess: invalidate,
  });
}

/**
 * Drops one's own elevation. Only the elevations are read again (then the scopes, by the top bar):
 * the screen still open may need the scope just dropped, and a call refused now would end the session.
 */
export function useDropElevationMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (id: string) => call('adminElevationDrop', { id }),
    onSuccess: () => void client.invalidateQueries({ queryKey: elevationKeys.mine(team) }),
  });
}

export function useElevationSettingsMutation() {
  const invalidate = useInvalidateElevations();
  return useMutation({ mutationFn: (enabled: boolean) => call('adminElevationSettings', { enabled }), onSuccess: invalidate });
}

export function useEligibilityMutation() {
  const invalidate = useInvalidateElevations();
  return useMutation({
    mutationFn: (input: { email: string; scopes: Scope[]; eligible_scopes: Scope[] }): Promise<{ code: string }> =>
      heldAsReply(call('adminEligibility', input)),
    onSuccess: invalidate,
  });
}

/** Approves or rejects a request for elevation, through the approvals room's call. */
export function useDecideElevationMutation() {
  const invalidate = useInvalidateElevations();
  return useMutation({
    mutationFn: (input: { id: string; decision: 'approve' | 'reject'; comment: string }) => call('approvalDecide', input),
    onSuccess: invalidate,
  });
}
