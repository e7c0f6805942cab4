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
import { registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Caller, type Guard, requireCaller } from '../../http/guard.ts';
import type { AccountCaller, AccountService } from './account.service.ts';
import type { PasswordResetService } from './password-reset.service.ts';

const who = (ctx: Caller | null, request: FastifyRequest): AccountCaller => {
  const caller = requireCaller(ctx);
  return { userId: caller.userId, sessionId: caller.sessionId, teamId: caller.team.id, ip: request.ip };
};

/** Spec §7 "With team": the signed-in admin's own sign-in settings. */
export function accountRoutes(app: FastifyInstance, guard: Guard, account: AccountService, reset: PasswordResetService) {
  registerEndpoint(app, requestPasswordResetEndpoint, guard, ({ input, request }) => reset.request(input.email, request.ip));
  registerEndpoint(app, validatePasswordRequestEndpoint, guard, ({ input }) => reset.validate(input.password_request));
  registerEndpoint(app, changePasswordRequestEndpoint, guard, ({ input, request }) =>
    reset.change(input.password_request, input.password, input.confirm_password, request.ip),
  );
  registerEndpoint(app, accountSecurityEndpoint, guard, ({ ctx, request }) => account.summary(who(ctx, request)));
  registerEndpoint(app, updateAuthTypeEndpoint, guard, ({ ctx, request, input }) =>
    account.updateAuthType(who(ctx, request), input.auth_type, input.password),
  );
  registerEndpoint(app, changePasswordEndpoint, guard, ({ ctx, request, input }) =>
    account.changePassword(who(ctx, request), input.old_password, input.new_password),
  );
  registerEndpoint(app, setFirstPasswordEndpoint, guard, ({ ctx, request, input }) =>
    account.setFirstPassword(who(ctx, request), input.password, input.confirm_password),
  );
  registerEndpoint(app, totpRegisterEndpoint, guard, ({ ctx, request }) => account.totpRegister(who(ctx, request)));
  registerEndpoint(app, totpRegisterVerifyEndpoint, guard, ({ ctx, request, input }) =>
    account.totpRegisterVerify(who(ctx, request), input.totp),
  );
  registerEndpoint(app, totpChangeEndpoint, guard, ({ ctx, request, input }) =>
    account.totpChange(who(ctx, request), input.totp),
  );
  registerEndpoint(app, totpChangeVerifyEndpoint, guard, ({ ctx, request, input }) =>
    account.totpChangeVerify(who(ctx, request), input.totp),
  );
  registerEndpoint(app, u2fRegisterOptionsEndpoint, guard, ({ ctx, request }) => account.securityKeyOptions(who(ctx, request)));
  registerEndpoint(app, u2fRegisterVerifyEndpoint, guard, ({ ctx, request, input }) =>
    account.addSecurityKey(who(ctx, request), input.response, input.name),
  );
  registerEndpoint(app, u2fKeysEndpoint, guard, ({ ctx, request }) => account.securityKeysList(who(ctx, request)));
  registerEndpoint(app, u2fKeyRenameEndpoint, guard, ({ ctx, request, input }) =>
    account.renameSecurityKey(who(ctx, request), input.id, input.name),
  );
  registerEndpoint(app, u2fKeyRemoveEndpoint, guard, ({ ctx, request, input }) =>
    account.removeSecurityKey(who(ctx, request), input.id, input.password),
  );
  registerEndpoint(app, regenerateRecoveryCodesEndpoint, guard, ({ ctx, request, input }) =>
    account.regenerateRecoveryCodes(who(ctx, request), input.totp),
  );
}
