import type { ApiMap, DownloadId, EndpointInput, Team } from '@latchkey/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { teamKeys } from '../team/index.ts';

type WizardState = EndpointInput<ApiMap['onboardingUpdate']>['state'];
export type WizardEvent = EndpointInput<ApiMap['onboardingAction']>;

/** Saves the wizard's stage and flags; the team's cached onboarding state follows at once (guard, sidebar). */
export function useWizardUpdate() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (state: WizardState) => call('onboardingUpdate', { state }),
    onSuccess: (wizard) => {
      client.setQueryData<Team>(teamKeys.team(team), (old) => (old ? { ...old, onboarding_wizard: wizard } : old));
    },
  });
}

/** Posts one wizard event. */
export const postWizardEvent = (event: WizardEvent) => call('onboardingAction', event);

export const useDownloadQuery = (id: DownloadId | null) =>
  useQuery({
    queryKey: ['onboarding', useTeamSlug(), 'download', id],
    queryFn: async () => (await call('productDownload', { id: id ?? 'all' })).location,
    enabled: id !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
