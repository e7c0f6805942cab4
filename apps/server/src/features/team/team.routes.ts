import {
  adminInfoEndpoint,
  adminScopeEndpoint,
  allTeamsEndpoint,
  auxServicesEndpoint,
  teamInfoEndpoint,
  teamNameEditEndpoint,
} from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import type { HubClient } from '../integration/index.ts';
import { createTeamService } from './team.service.ts';

export function teamRoutes(router: Router, guard: Guard, db: Db, hubClient: HubClient) {
  const team = createTeamService(db, hubClient);
  router.handle(teamInfoEndpoint, guard, ({ ctx }) => team.info(requireCaller(ctx)));
  router.handle(adminScopeEndpoint, guard, async ({ ctx }) => ({ scope: requireCaller(ctx).scopes }));
  router.handle(adminInfoEndpoint, guard, ({ ctx }) => team.adminInfo(requireCaller(ctx)));
  router.handle(allTeamsEndpoint, guard, ({ ctx }) => team.allTeams(requireCaller(ctx)));
  router.handle(auxServicesEndpoint, guard, ({ ctx }) => team.auxServices(requireCaller(ctx)));
}

/** The team rename (its own registration: the OpenAPI document lists calls in registration order). */
export function teamRenameRoutes(router: Router, guard: Guard, db: Db, hubClient: HubClient) {
  const team = createTeamService(db, hubClient);
  router.handle(teamNameEditEndpoint, guard, ({ ctx, input }) => team.rename(requireCaller(ctx), input.team_name));
}
