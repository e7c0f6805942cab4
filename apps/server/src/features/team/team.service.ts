import type { allTeamsEndpoint, auxServicesEndpoint, EndpointOutput, teamInfoEndpoint } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import type { Caller } from '../../http/guard.ts';
import { teamRepository as repo } from './team.repository.ts';

export function createTeamService(db: Db) {
  return {
    async info(caller: Caller): Promise<EndpointOutput<typeof teamInfoEndpoint>> {
      const { id: _id, slug, name, ...team } = caller.team;
      return { ...team, team_slug: slug, team_name: name, total_users: await repo.countActiveMembers(db, caller.team.id) };
    },

    async allTeams(caller: Caller): Promise<EndpointOutput<typeof allTeamsEndpoint>> {
      const teams = await repo.adminTeams(db, caller.userId);
      return { teams: teams.map((t) => ({ team_slug: t.slug, team_name: t.name, team_type: t.team_type })) };
    },

    async auxServices(caller: Caller): Promise<EndpointOutput<typeof auxServicesEndpoint>> {
      const hubs = await repo.hubs(db, caller.team.id);
      return {
        servers: hubs.map((h) => ({
          server_url: h.server_url,
          credential_id: h.credential_id,
          hub_version: h.hub_version,
          services: h.services,
        })),
      };
    },
  };
}
