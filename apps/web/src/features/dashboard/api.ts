import { useQuery } from '@tanstack/react-query';
import { callQuery } from '../../lib/api.ts';
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
    ...callQuery('notification', {}),
  });
export const useActivityQuery = () =>
  useQuery({
    queryKey: dashboardKeys.activity(useTeamSlug()),
    ...callQuery('dashboardActivity', {}),
  });
export const useProvisioningQuery = () =>
  useQuery({
    queryKey: dashboardKeys.provisioning(useTeamSlug()),
    ...callQuery('dashboardProvisioning', {}, (answer) => answer.data),
  });
export const useLicenceSummaryQuery = () =>
  useQuery({
    queryKey: dashboardKeys.licences(useTeamSlug()),
    ...callQuery('licenceSummary', {}),
  });
export const useAuthTypeQuery = () =>
  useQuery({
    queryKey: dashboardKeys.authType(useTeamSlug()),
    ...callQuery('authType', {}),
  });
