import { adminAddEndpoint, adminAuthResetEndpoint, adminMembersEndpoint, adminRemoveEndpoint } from '@latchkey/contracts';
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import type { OnboardingInvites } from '../auth/index.ts';
import { createAdminsService } from './admins.service.ts';

export const ADMINS_ENDPOINTS = [adminMembersEndpoint, adminAddEndpoint, adminRemoveEndpoint, adminAuthResetEndpoint];

/** Settings → administrators: super admin only, every rule in the service. */
export function adminsRoutes(app: FastifyInstance, guard: Guard, db: Db, invites?: OnboardingInvites) {
  const admins = createAdminsService(db);
  registerEndpoint(app, adminMembersEndpoint, guard, ({ ctx, input }) => admins.list(requireCaller(ctx), input.search_value));
  registerEndpoint(app, adminAddEndpoint, guard, async ({ ctx, input, request }) => {
    const caller = requireCaller(ctx);
    const done = await admins.add(caller, input.email, input.scopes);
    // The admin is added whatever happens to the invitation mail; they can still sign in from /login.
    await invites?.invite(caller.team.id, input.email, request.headers.origin).catch((error: unknown) => {
      request.log.warn({ err: error }, 'onboarding invitation not sent');
    });
    return done;
  });
  registerEndpoint(app, adminRemoveEndpoint, guard, ({ ctx, input }) => admins.remove(requireCaller(ctx), input.email));
  registerEndpoint(app, adminAuthResetEndpoint, guard, ({ ctx, input }) => admins.resetAuth(requireCaller(ctx), input.email));
}
