import {
  adminInfoEndpoint,
  adminScopeEndpoint,
  allTeamsEndpoint,
  auxServicesEndpoint,
  teamInfoEndpoint,
} from '@latchkey/contracts';
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import type { HubClient } from '../integration/index.ts';
import { createTeamService } from './team.service.ts';

export function teamRoutes(app: FastifyInstance, guard: Guard, db: Db, hubClient: HubClient) {
  const team = createTeamService(db, hubClient);
  registerEndpoint(app, teamInfoEndpoint, guard, ({ ctx }) => team.info(requireCaller(ctx)));
  registerEndpoint(app, adminScopeEndpoint, guard, async ({ ctx }) => ({ scope: requireCaller(ctx).scopes }));
  registerEndpoint(app, adminInfoEndpoint, guard, ({ ctx }) => team.adminInfo(requireCaller(ctx)));
  registerEndpoint(app, allTeamsEndpoint, guard, ({ ctx }) => team.allTeams(requireCaller(ctx)));
  registerEndpoint(app, auxServicesEndpoint, guard, ({ ctx }) => team.auxServices(requireCaller(ctx)));
}
