import type { LogoType } from '@latchkey/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, callQuery } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

const brandingKeys = { logo: (team: string) => ['branding', team, 'logo'] as const };

/** The team's logo (top bar, dashboard, branding page); null when none is uploaded. */
export const useLogoQuery = () =>
  useQuery({
    queryKey: brandingKeys.logo(useTeamSlug()),
    ...callQuery('branding', {}, (answer) => answer.logo),
    staleTime: 5 * 60_000,
  });

type LogoAction = { kind: 'upload' | 'update'; content_type: LogoType; data: string } | { kind: 'remove' };

export function useLogoMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: async (action: LogoAction) => {
      if (action.kind === 'remove') return call('logoRemove', {});
      const input = { content_type: action.content_type, data: action.data };
      return action.kind === 'upload' ? call('logoUpload', input) : call('logoUpdate', input);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: brandingKeys.logo(team) }),
  });
}
