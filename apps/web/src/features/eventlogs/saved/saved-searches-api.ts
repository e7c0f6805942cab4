import type { ApiMap, EndpointInput, SavedSearch } from '@latchkey/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { useTeamSlug } from '../../../lib/team-slug.ts';
import { eventKeys } from '../api.ts';

export type { SavedSearch };

const savedKey = (team: string) => [...eventKeys.all(team), 'saved-searches'] as const;

/** The caller's private saved searches and the team's shared ones, by name. */
export function useSavedSearchesQuery() {
  const team = useTeamSlug();
  return useQuery({
    queryKey: savedKey(team),
    queryFn: async () => (await call('auditLogsSearchesFetch', { team_slug: team })).searches,
  });
}

type SavedSearchCall = 'auditLogsSearchCreate' | 'auditLogsSearchUpdate' | 'auditLogsSearchDelete';

/** A change to a saved search; the list is read again after it. */
function useSavedSearchMutation<K extends SavedSearchCall>(name: K) {
  const team = useTeamSlug();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<EndpointInput<ApiMap[K]>, 'team_slug'>) =>
      call(name, { team_slug: team, ...input } as EndpointInput<ApiMap[K]>),
    onSuccess: () => client.invalidateQueries({ queryKey: savedKey(team) }),
  });
}

export const useCreateSavedSearch = () => useSavedSearchMutation('auditLogsSearchCreate');
export const useUpdateSavedSearch = () => useSavedSearchMutation('auditLogsSearchUpdate');
export const useDeleteSavedSearch = () => useSavedSearchMutation('auditLogsSearchDelete');

/** The address that opens a saved search in the event log (hash routing: the query before the hash). */
export function savedSearchLink(id: string): string {
  const url = new URL(window.location.href);
  url.search = `?saved=${encodeURIComponent(id)}`;
  url.hash = '#/eventlogs';
  return url.href;
}
