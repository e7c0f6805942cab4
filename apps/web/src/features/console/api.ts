import type { AccessContext } from '@latchkey/contracts/client';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';

/** Query keys of the signed-in team's shell data; the team slug scopes the cache. */
export const consoleKeys = {
  all: (team: string) => ['console', team] as const,
  team: (team: string) => [...consoleKeys.all(team), 'team'] as const,
  scopes: (team: string) => [...consoleKeys.all(team), 'scopes'] as const,
  admin: (team: string) => [...consoleKeys.all(team), 'admin'] as const,
  teams: (team: string) => [...consoleKeys.all(team), 'teams'] as const,
  services: (team: string) => [...consoleKeys.all(team), 'services'] as const,
};

const useTeamSlug = () => useSession()?.team_slug ?? '';

export const useTeamInfoQuery = () =>
  useQuery({ queryKey: consoleKeys.team(useTeamSlug()), queryFn: () => call('teamInfo', {}) });
export const useScopesQuery = () =>
  useQuery({ queryKey: consoleKeys.scopes(useTeamSlug()), queryFn: async () => (await call('adminScope', {})).scope });
export const useAdminInfoQuery = () =>
  useQuery({ queryKey: consoleKeys.admin(useTeamSlug()), queryFn: () => call('adminInfo', {}) });
export const useAllTeamsQuery = () =>
  useQuery({ queryKey: consoleKeys.teams(useTeamSlug()), queryFn: async () => (await call('allTeams', {})).teams });
export const useAuxServicesQuery = () =>
  useQuery({
    queryKey: consoleKeys.services(useTeamSlug()),
    queryFn: async () => (await call('auxServices', {})).servers,
    // The server asks the Hub on every read: polling keeps the sidebar and guard on the live state.
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
  });

/** The access context of spec §2 Route guard, from live team, scope and service data. */
export function useAccessContext(): { ctx: AccessContext | null; isError: boolean; refetch: () => void } {
  const team = useTeamInfoQuery();
  const scopes = useScopesQuery();
  const services = useAuxServicesQuery();
  const refetch = () => {
    void team.refetch();
    void scopes.refetch();
    void services.refetch();
  };
  if (!team.data || !scopes.data || !services.data) {
    return { ctx: null, isError: team.isError || scopes.isError || services.isError, refetch };
  }
  const first = services.data[0]?.services ?? {};
  return {
    ctx: {
      scopes: scopes.data,
      teamType: team.data.team_type,
      organizationType: team.data.organization_type,
      cloud: team.data.business_cloud,
      hubEnabled: Boolean(first.integration?.enabled),
      services: first,
    },
    isError: false,
    refetch,
  };
}
