import {
  accountSecurityEndpoint,
  changePasswordEndpoint,
  changePasswordRequestEndpoint,
  regenerateRecoveryCodesEndpoint,
  requestPasswordResetEndpoint,
  setFirstPasswordEndpoint,
  totpChangeEndpoint,
  totpChangeVerifyEndpoint,
  totpRegisterEndpoint,
  totpRegisterVerifyEndpoint,
  u2fKeyRemoveEndpoint,
  u2fKeyRenameEndpoint,
  u2fKeysEndpoint,
  u2fRegisterOptionsEndpoint,
  u2fRegisterVerifyEndpoint,
  updateAuthTypeEndpoint,
  validatePasswordRequestEndpoint,
} from '@latchkey/contracts';
import { AppError, type Router } from '@latchkey/runtime';
import type { FastifyRequest } from 'fastify';
import { type Caller, type Guard, requireCaller } from '../../http/caller.ts';
import type { AccountCaller, AccountService } from './account.service.ts';
import type { PasswordResetService } from './password-reset.service.ts';

/** The reset link's token from the Basic header or the body; two different ones are no link at all. */
function resetToken(header: string | undefined, body: string | undefined): string {
  const fromHeader = header?.startsWith('Basic ') ? header.slice(6).trim() : undefined;
  const token = fromHeader || body;
  if (!token || (fromHeader && body && fromHeader !== body) || token.length < 16 || token.length > 200)
    throw new AppError('invalid_link', 'The link is invalid, used or expired.', 400).shows('invalid or expired link');
  return token;
}

const who = (ctx: Caller | null, request: FastifyRequest): AccountCaller => {
  const caller = requireCaller(ctx);
  return { userId: caller.userId, sessionId: caller.sessionId, teamId: caller.team.id, ip: request.ip };
};

/** Spec §7 "With team": the signed-in admin's own sign-in settings. */
export function accountRoutes(router: Router, guard: Guard, account: AccountService, reset: PasswordResetService) {
  router.handle(requestPasswordResetEndpoint, guard, ({ input, request }) => reset.request(input.email, request.ip));
  router.handle(validatePasswordRequestEndpoint, guard, ({ input }) => reset.validate(input.password_request));
  // Spec §7: the reset token comes in 'Authorization: Basic {token}' (and, as before, in the body).
  router.handle(changePasswordRequestEndpoint, guard, ({ input, request }) =>
    reset.change(
      resetToken(request.headers.authorization, input.password_request),
      input.password,
      input.confirm_password,
      request.ip,
    ),
  );
  router.handle(accountSecurityEndpoint, guard, ({ ctx, request }) => account.summary(who(ctx, request)));
  router.handle(updateAuthTypeEndpoint, guard, ({ ctx, request, input }) =>
    account.updateAuthType(who(ctx, request), input.auth_type, input.password),
  );
  router.handle(changePasswordEndpoint, guard, ({ ctx, request, input }) =>
    account.changePassword(who(ctx, request), input.old_password, input.new_password),
  );
  router.handle(setFirstPasswordEndpoint, guard, ({ ctx, request, input }) =>
    account.setFirstPassword(who(ctx, request), input.password, input.confirm_password),
  );
  router.handle(totpRegisterEndpoint, guard, ({ ctx, request }) => account.totpRegister(who(ctx, request)));
  router.handle(totpRegisterVerifyEndpoint, guard, ({ ctx, request, input }) =>
    account.totpRegisterVerify(who(ctx, request), input.totp),
  );
  router.handle(totpChangeEndpoint, guard, ({ ctx, request, input }) => account.totpChange(who(ctx, request), input.totp));
  router.handle(totpChangeVerifyEndpoint, guard, ({ ctx, request, input }) =>
    account.totpChangeVerify(who(ctx, request), input.totp),
  );
  router.handle(u2fRegisterOptionsEndpoint, guard, ({ ctx, request }) => account.securityKeyOptions(who(ctx, request)));
  router.handle(u2fRegisterVerifyEndpoint, guard, ({ ctx, request, input }) =>
    account.addSecurityKey(who(ctx, request), input.response, input.name),
  );
  router.handle(u2fKeysEndpoint, guard, ({ ctx, request }) => account.securityKeysList(who(ctx, request)));
  router.handle(u2fKeyRenameEndpoint, guard, ({ ctx, request, input }) =>
    account.renameSecurityKey(who(ctx, request), input.id, input.name),
  );
  router.handle(u2fKeyRemoveEndpoint, guard, ({ ctx, request, input }) =>
    account.removeSecurityKey(who(ctx, request), input.id, input.password),
  );
  router.handle(regenerateRecoveryCodesEndpoint, guard, ({ ctx, request, input }) =>
    account.regenerateRecoveryCodes(who(ctx, request), input.totp),
  );
}
