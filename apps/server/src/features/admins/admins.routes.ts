import { adminAddEndpoint, adminAuthResetEndpoint, adminMembersEndpoint, adminRemoveEndpoint } from '@latchkey/contracts';
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import { createAdminsService } from './admins.service.ts';

export const ADMINS_ENDPOINTS = [adminMembersEndpoint, adminAddEndpoint, adminRemoveEndpoint, adminAuthResetEndpoint];

/** Settings → administrators: super admin only, every rule in the service. */
export function adminsRoutes(app: FastifyInstance, guard: Guard, db: Db) {
  const admins = createAdminsService(db);
  registerEndpoint(app, adminMembersEndpoint, guard, ({ ctx, input }) => admins.list(requireCaller(ctx), input.search_value));
  registerEndpoint(app, adminAddEndpoint, guard, ({ ctx, input }) => admins.add(requireCaller(ctx), input.email, input.scopes));
  registerEndpoint(app, adminRemoveEndpoint, guard, ({ ctx, input }) => admins.remove(requireCaller(ctx), input.email));
  registerEndpoint(app, adminAuthResetEndpoint, guard, ({ ctx, input }) => admins.resetAuth(requireCaller(ctx), input.email));
}
