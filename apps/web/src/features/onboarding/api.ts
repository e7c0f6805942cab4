import type { ApiMap, DownloadId, EndpointInput, Team } from '@latchkey/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';
import { teamKeys } from '../team/index.ts';

type WizardState = EndpointInput<ApiMap['onboardingUpdate']>['state'];
type WizardEvent = EndpointInput<ApiMap['onboardingAction']>;
type OnboardingCloud = EndpointInput<ApiMap['onboardingConsentUrl']>['cloud'];

/** Query keys of the onboarding wizard; the team slug scopes the cache. */
const onboardingKeys = {
  all: (team: string) => ['onboarding', team] as const,
  download: (team: string, id: DownloadId | null) => [...onboardingKeys.all(team), 'download', id] as const,
  helpLink: (team: string, cloud: OnboardingCloud) => [...onboardingKeys.all(team), 'help-link', cloud] as const,
};

/** Saves the wizard's stage and flags and returns the wizard as the server now holds it. */
export const saveWizardState = (state: WizardState) => call('onboardingUpdate', { state });

/** Saves the wizard's stage and flags; the team's cached onboarding state follows at once (guard, sidebar). */
export function useWizardUpdate() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: saveWizardState,
    onSuccess: (wizard) => {
      client.setQueryData<Team>(teamKeys.team(team), (old) => (old ? { ...old, onboarding_wizard: wizard } : old));
    },
  });
}

/** Posts one wizard event. */
export const postWizardEvent = (event: WizardEvent) => call('onboardingAction', event);

export const useDownloadQuery = (id: DownloadId | null) =>
  useQuery({
    queryKey: onboardingKeys.download(useTeamSlug(), id),
    queryFn: async () => (await call('productDownload', { id: id ?? 'all' })).location,
    enabled: id !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The address of the cloud's consent page that adds the product to its enterprise apps. */
export const fetchConsentUrl = async (cloud: OnboardingCloud) => (await call('onboardingConsentUrl', { cloud })).url;

/** The same address, shown to be handed to the cloud's administrator. */
export const useHelpLinkQuery = (cloud: OnboardingCloud) =>
  useQuery({
    queryKey: onboardingKeys.helpLink(useTeamSlug(), cloud),
    queryFn: () => fetchConsentUrl(cloud),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** Asks the server whether the signed-in admin's cloud now lists the product (after the consent popup). */
export const verifyCloudUser = () => call('onboardingVerifyUser', {});

/** Asks the server whether the team's cloud connection works (step 1's Next). */
export const checkCloudConnection = () => call('onboardingCloudConnection', {});
