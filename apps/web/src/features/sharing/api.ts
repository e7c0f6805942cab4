import type { ApiMap, EndpointOutput } from '@latchkey/contracts/client';
import { DEFAULT_PAGE_SIZE } from '@latchkey/contracts/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useServiceMutation } from '../../lib/service-mutation.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

/** Query keys of the sharing screen; the team slug scopes the cache. */
const sharingKeys = {
  all: (team: string) => ['sharing', team] as const,
  links: (team: string, page: number, search: string) => [...sharingKeys.all(team), 'links', page, search] as const,
  limits: (team: string) => [...sharingKeys.all(team), 'limits'] as const,
};

export type SharingLimitsValue = EndpointOutput<ApiMap['sharingLimits']>;
export type ShareLinkRow = EndpointOutput<ApiMap['sharingLinks']>['results'][number];

export function useShareLinksQuery(page: number, search: string) {
  const team = useTeamSlug();
  return useQuery({
    queryKey: sharingKeys.links(team, page, search),
    queryFn: () => call('sharingLinks', { team_slug: team, page, page_size: DEFAULT_PAGE_SIZE, search_value: search }),
    placeholderData: keepPreviousData,
  });
}

export function useSharingLimitsQuery() {
  const team = useTeamSlug();
  return useQuery({
    queryKey: sharingKeys.limits(team),
    queryFn: () => call('sharingLimits', { team_slug: team }),
  });
}

export const useRevokeSharesMutation = () => useServiceMutation('sharingRevoke', sharingKeys.all);
export const useUpdateSharingLimitsMutation = () => useServiceMutation('sharingLimitsUpdate', sharingKeys.all);
