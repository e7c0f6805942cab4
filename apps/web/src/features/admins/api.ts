import type { ApiMap, EndpointOutput, Scope } from '@latchkey/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
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
