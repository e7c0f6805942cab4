import type { ScimIdp } from '@latchkey/contracts/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

const scimKeys = {
  all: (team: string) => ['scim', team] as const,
  list: (team: string) => [...scimKeys.all(team), 'list'] as const,
  requests: (team: string, id: string, page: number) => [...scimKeys.all(team), 'requests', id, page] as const,
};

/** Always fresh on opening the page: the last request time moves without the console doing anything. */
export const useConnectorsQuery = () =>
  useQuery({
    queryKey: scimKeys.list(useTeamSlug()),
    queryFn: () => call('scimConnectors', {}),
    staleTime: 0,
    refetchOnMount: 'always',
  });

export const useRequestsQuery = (id: string, page: number) =>
  useQuery({
    queryKey: scimKeys.requests(useTeamSlug(), id, page),
    queryFn: () => call('scimConnectorRequests', { id, page }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchOnMount: 'always',
  });

type ConnectorAction =
  | { kind: 'create'; idp: ScimIdp; name: string }
  | { kind: 'rotate'; id: string; overlap_hours: number }
  | { kind: 'revoke'; id: string };

/** Create and rotate answer the token (shown once); revoke answers nothing to show. */
export function useConnectorMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: async (action: ConnectorAction) => {
      if (action.kind === 'create') return call('scimConnectorCreate', { idp: action.idp, name: action.name });
      if (action.kind === 'rotate') return call('scimConnectorRotate', { id: action.id, overlap_hours: action.overlap_hours });
      await call('scimConnectorRevoke', { id: action.id });
      return null;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: scimKeys.all(team) }),
  });
}
