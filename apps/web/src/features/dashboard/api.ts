import { useQuery } from '@tanstack/react-query';
import { call, prefetchedData } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

/** Query keys of the dashboard's figures; the team slug scopes the cache. */
export const dashboardKeys = {
  all: (team: string) => ['dashboard', team] as const,
  notification: (team: string) => [...dashboardKeys.all(team), 'notification'] as const,
  activity: (team: string) => [...dashboardKeys.all(team), 'activity'] as const,
  provisioning: (team: string) => [...dashboardKeys.all(team), 'provisioning'] as const,
  licences: (team: string) => [...dashboardKeys.all(team), 'licences'] as const,
  authType: (team: string) => [...dashboardKeys.all(team), 'auth-type'] as const,
};

export const useNotificationQuery = () =>
  useQuery({
    queryKey: dashboardKeys.notification(useTeamSlug()),
    queryFn: () => call('notification', {}),
    ...prefetchedData('notification', {}),
  });
export const useActivityQuery = () =>
  useQuery({
    queryKey: dashboardKeys.activity(useTeamSlug()),
    queryFn: () => call('dashboardActivity', {}),
    ...prefetchedData('dashboardActivity', {}),
  });
export const useProvisioningQuery = () =>
  useQuery({
    queryKey: dashboardKeys.provisioning(useTeamSlug()),
    queryFn: async () => (await call('dashboardProvisioning', {})).data,
    ...prefetchedData('dashboardProvisioning', {}, (answer) => answer.data),
  });
export const useLicenceSummaryQuery = () =>
  useQuery({
    queryKey: dashboardKeys.licences(useTeamSlug()),
    queryFn: () => call('licenceSummary', {}),
    ...prefetchedData('licenceSummary', {}),
  });
export const useAuthTypeQuery = () =>
  useQuery({
    queryKey: dashboardKeys.authType(useTeamSlug()),
    queryFn: () => call('authType', {}),
    ...prefetchedData('authType', {}),
  });
