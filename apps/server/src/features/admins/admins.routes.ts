import {
  adminAddEndpoint,
  adminAuthResetEndpoint,
  adminInvitationAcceptEndpoint,
  adminInvitationEndpoint,
  adminMembersEndpoint,
  adminRemoveEndpoint,
} from '@latchkey/contracts';
import { type Db, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import type { Mailer } from '../../platform/mail.ts';
import type { OnboardingInvites } from '../auth/onboarding-invites.ts';
import { createAdminsService, createInvitationAcceptance, INVITATION_DAYS, type NewInvitation } from './admins.service.ts';

export const ADMINS_ENDPOINTS = [
  adminMembersEndpoint,
  adminAddEndpoint,
  adminRemoveEndpoint,
  adminAuthResetEndpoint,
  adminInvitationEndpoint,
  adminInvitationAcceptEndpoint,
];

export interface AdminsDeps {
  invites: OnboardingInvites;
  mailer: Mailer;
  /** The console's configured address; null when no link can be mailed. */
  consoleUrl: () => string | null;
}

function invitationMail(base: string, invitation: NewInvitation) {
  return {
    to: invitation.email,
    subject: `You are invited to administer ${invitation.teamName}`,
    text: `${invitation.invitedBy} invited you to administer ${invitation.teamName} in the Latchkey admin console (${invitation.scopes.join(', ')}).\n\nAccept the invitation: ${base}/#/admin-invitation/${encodeURIComponent(invitation.token)}\n\nThe link works once, for ${INVITATION_DAYS} days. Until you accept, nothing changes for you. If you did not expect this, ignore this email.`,
  };
}

/** Settings → administrators: super admin only, every rule in the service; invitations are accepted by their link. */
export function adminsRoutes(app: FastifyInstance, guard: Guard, db: Db, deps: AdminsDeps) {
  const admins = createAdminsService(db);
  const acceptance = createInvitationAcceptance(db);
  registerEndpoint(app, adminMembersEndpoint, guard, ({ ctx, input }) => admins.list(requireCaller(ctx), input.search_value));
  registerEndpoint(app, adminAddEndpoint, guard, async ({ ctx, input, request }) => {
    const caller = requireCaller(ctx);
    const base = deps.consoleUrl();
    const done = await admins.add(caller, input.email, input.scopes, base !== null);
    if (done.code === 'invited') {
      // The invitation's token exists only in this mail: without it the person cannot accept.
      await deps.mailer.send(invitationMail(base as string, done.invitation));
      return { code: 'invited' as const };
    }
    // The admin is added whatever happens to the onboarding mail; they can still sign in from /login.
    await deps.invites.invite(caller.team.id, input.email).catch((error: unknown) => {
      request.log.warn({ err: error }, 'onboarding invitation not sent');
    });
    return done;
  });
  registerEndpoint(app, adminRemoveEndpoint, guard, ({ ctx, input }) => admins.remove(requireCaller(ctx), input.email));
  registerEndpoint(app, adminAuthResetEndpoint, guard, ({ ctx, input }) => admins.resetAuth(requireCaller(ctx), input.email));
  registerEndpoint(app, adminInvitationEndpoint, guard, ({ input }) => acceptance.describe(input.token));
  registerEndpoint(app, adminInvitationAcceptEndpoint, guard, ({ input }) => acceptance.accept(input.token));
}
