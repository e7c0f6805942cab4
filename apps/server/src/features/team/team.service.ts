import type { allTeamsEndpoint, auxServicesEndpoint, EndpointOutput, teamInfoEndpoint } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import type { HubClient } from '../integration/index.ts';
import { liveServers } from '../integration/index.ts';
import { membersRepository } from '../members/index.ts';
import { usersRepository } from '../users/index.ts';
import { teamRepository as repo } from './team.repository.ts';

export function createTeamService(db: Db, hubClient: HubClient) {
  return {
    async adminInfo(caller: Caller) {
      const user = await usersRepository.findUserByEmail(db, caller.email);
      return { user_email: caller.email, user_name: user?.name ?? '' };
    },

    async info(caller: Caller): Promise<EndpointOutput<typeof teamInfoEndpoint>> {
      const { id: _id, slug, name, benefit_grant_subscription, ...team } = caller.team;
      return {
        ...team,
        team_slug: slug,
        team_name: name,
        benefit: { grant_subscription: benefit_grant_subscription },
        total_users: await membersRepository.countCurrent(db, caller.team.id),
      };
    },

    async allTeams(caller: Caller): Promise<EndpointOutput<typeof allTeamsEndpoint>> {
      const teams = await repo.adminTeams(db, caller.userId);
      return { teams: teams.map((t) => ({ team_slug: t.slug, team_name: t.name, team_type: t.team_type })) };
    },

    async rename(caller: Caller, name: string) {
      await repo.rename(db, caller.team.id, name);
      return { team_name: name };
    },

    async auxServices(caller: Caller): Promise<EndpointOutput<typeof auxServicesEndpoint>> {
      // Asked live: a Hub that stopped shows (and guards) as an error at once.
      return { servers: await liveServers(db, hubClient, caller) };
    },
  };
}
