import type { ApiMap, EndpointInput } from '@latchkey/contracts/client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from './api.ts';
import { useTeamSlug } from './team-slug.ts';

/**
 * A change to a Hub service (the call carries the team slug); afterwards every query under `key`,
 * the service's screens, is read again.
 */
export function useServiceMutation<K extends keyof ApiMap>(name: K, key: (team: string) => readonly unknown[]) {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (input: Omit<EndpointInput<ApiMap[K]>, 'team_slug'>) =>
      call(name, { team_slug: team, ...input } as EndpointInput<ApiMap[K]>),
    onSuccess: () => client.invalidateQueries({ queryKey: key(team) }),
  });
}
