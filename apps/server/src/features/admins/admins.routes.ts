import {
  adminAddEndpoint,
  adminAuthResetEndpoint,
  adminInvitationAcceptEndpoint,
  adminInvitationEndpoint,
  adminMembersEndpoint,
  adminRemoveEndpoint,
} from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import type { OnboardingInvites } from '../auth/index.ts';
import { type AdminsServiceDeps, createAdminsService, createInvitationAcceptance, type TeamNames } from './admins.service.ts';

interface AdminsDeps extends AdminsServiceDeps {
  invites: OnboardingInvites;
  teamNames: TeamNames;
}

/** Settings → administrators: super admin only, every rule in the service; invitations are accepted by their link. */
export function adminsRoutes(router: Router, guard: Guard, db: Db, deps: AdminsDeps) {
  const admins = createAdminsService(db, deps);
  const acceptance = createInvitationAcceptance(db, deps.teamNames);
  router.handle(adminMembersEndpoint, guard, ({ ctx, input }) => admins.list(requireCaller(ctx), input.search_value));
  router.handle(adminAddEndpoint, guard, async ({ ctx, input, request }) => {
    const caller = requireCaller(ctx);
    const done = await admins.add(caller, input.email, input.scopes);
    if (done.code === 'invited') return done;
    // The admin is added whatever happens to the onboarding mail; they can still sign in from /login.
    await deps.invites.invite(caller.team.id, input.email).catch((error: unknown) => {
      request.log.warn({ err: error }, 'onboarding invitation not sent');
    });
    return done;
  });
  router.handle(adminRemoveEndpoint, guard, ({ ctx, input }) => admins.remove(requireCaller(ctx), input.email));
  router.handle(adminAuthResetEndpoint, guard, ({ ctx, input }) => admins.resetAuth(requireCaller(ctx), input.email));
  router.handle(adminInvitationEndpoint, guard, ({ input }) => acceptance.describe(input.token));
  router.handle(adminInvitationAcceptEndpoint, guard, ({ input }) => acceptance.accept(input.token));
}
