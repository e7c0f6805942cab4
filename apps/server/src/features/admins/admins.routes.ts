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
import type { Approvals } from '../approvals/index.ts';
import type { OnboardingInvites } from '../auth/index.ts';
import {
  type AdminsServiceDeps,
  createAdminsService,
  createInvitationAcceptance,
  removesSecondToLastSuperAdmin,
  type TeamNames,
} from './admins.service.ts';

interface AdminsDeps extends AdminsServiceDeps {
  invites: OnboardingInvites;
  teamNames: TeamNames;
  approvals: Approvals;
  log: { warn(detail: object, message: string): void };
}

/** Settings → administrators: super admin only, every rule in the service; invitations are accepted by their link. */
export function adminsRoutes(router: Router, guard: Guard, db: Db, deps: AdminsDeps) {
  const admins = createAdminsService(db, deps);
  const acceptance = createInvitationAcceptance(db, deps.teamNames);
  // Under four-eyes approval the same service runs once approved, its transaction closing the request.
  const inDb = (q: typeof db) => (q === db ? admins : createAdminsService(q, deps));
  const add = deps.approvals.approvable(adminAddEndpoint, 'admins.add', {
    run: async (input, caller, q) => {
      const done = await inDb(q).add(caller, input.email, input.scopes);
      if (done.code === 'invited') return done;
      // The admin is added whatever happens to the onboarding mail; they can still sign in from /login.
      await deps.invites.invite(caller.team.id, input.email).catch((error: unknown) => {
        deps.log.warn({ err: error }, 'onboarding invitation not sent');
      });
      return done;
    },
    describe: async (input) => ({
      summary: `Make ${input.email} an administrator (${input.scopes.join(', ')})`,
      changes: [{ key: input.email, kind: 'added', before: null, after: input.scopes }],
    }),
  });
  const remove = deps.approvals.approvable(adminRemoveEndpoint, 'admins.remove', {
    run: (input, caller, q) => inDb(q).remove(caller, input.email),
    describe: async (input) => ({
      summary: `Remove ${input.email} as administrator`,
      changes: [{ key: input.email, kind: 'removed', before: 'administrator', after: null }],
    }),
  });
  const resetAuth = deps.approvals.approvable(adminAuthResetEndpoint, 'admins.reset_sign_in', {
    run: (input, caller, q) => inDb(q).resetAuth(caller, input.email),
    describe: async (input) => ({ summary: `Reset the sign-in of ${input.email}` }),
  });
  router.handle(adminMembersEndpoint, guard, ({ ctx, input }) => admins.list(requireCaller(ctx), input.search_value));
  router.handle(adminAddEndpoint, guard, ({ ctx, input }) => add(requireCaller(ctx), input));
  // Removing the second-to-last super admin waits for approval whenever the policy is on.
  router.handle(adminRemoveEndpoint, guard, async ({ ctx, input }) => {
    const caller = requireCaller(ctx);
    const secondToLast = await removesSecondToLastSuperAdmin(db, caller.team.id, input.email);
    return remove(caller, input, { ask: secondToLast ? 'when_enabled' : 'policy' });
  });
  router.handle(adminAuthResetEndpoint, guard, ({ ctx, input }) => resetAuth(requireCaller(ctx), input));
  router.handle(adminInvitationEndpoint, guard, ({ input }) => acceptance.describe(input.token));
  router.handle(adminInvitationAcceptEndpoint, guard, ({ input }) => acceptance.accept(input.token));
}
