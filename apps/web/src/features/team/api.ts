import type { AccessContext } from '@latchkey/contracts/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accessContextOf } from '../../lib/access-context.ts';
import { call, callQuery } from '../../lib/api.ts';
import { useTeamSlug } from '../../lib/team-slug.ts';

/** Query keys of the signed-in team's data the frame reads; the team slug scopes the cache. */
export const teamKeys = {
  all: (team: string) => ['team', team] as const,
  team: (team: string) => [...teamKeys.all(team), 'team'] as const,
  scopes: (team: string) => [...teamKeys.all(team), 'scopes'] as const,
  admin: (team: string) => [...teamKeys.all(team), 'admin'] as const,
  teams: (team: string) => [...teamKeys.all(team), 'teams'] as const,
  services: (team: string) => [...teamKeys.all(team), 'services'] as const,
};

export const useTeamInfoQuery = () => useQuery({ queryKey: teamKeys.team(useTeamSlug()), ...callQuery('teamInfo', {}) });
const useScopesQuery = () =>
  useQuery({
    queryKey: teamKeys.scopes(useTeamSlug()),
    ...callQuery('adminScope', {}, (answer) => answer.scope),
  });
export const useAdminInfoQuery = () => useQuery({ queryKey: teamKeys.admin(useTeamSlug()), ...callQuery('adminInfo', {}) });
export const useAllTeamsQuery = () =>
  useQuery({
    queryKey: teamKeys.teams(useTeamSlug()),
    ...callQuery('allTeams', {}, (answer) => answer.teams),
  });
export const useAuxServicesQuery = () =>
  useQuery({
    queryKey: teamKeys.services(useTeamSlug()),
    ...callQuery('auxServices', {}, (answer) => answer.servers),
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
  return {
    ctx: accessContextOf(team.data, scopes.data, services.data),
    isError: false,
    refetch,
  };
}

/** Renames the team (a family names itself from the dashboard); every team query is stale after it. */
export function useRenameTeamMutation() {
  const client = useQueryClient();
  const team = useTeamSlug();
  return useMutation({
    mutationFn: (team_name: string) => call('teamNameEdit', { team_name }),
    onSuccess: () => client.invalidateQueries({ queryKey: teamKeys.all(team) }),
  });
}
