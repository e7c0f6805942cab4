import {
  loginEndpoint,
  refreshTokenEndpoint,
  setPasswordFirstLoginEndpoint,
  signoutEndpoint,
  u2fSignInOptionsEndpoint,
  verifyOtpEndpoint,
  verifyPasswordEndpoint,
  verifyRecoveryCodeEndpoint,
  verifyTotpEndpoint,
  verifyU2fEndpoint,
} from '@latchkey/contracts';
import type { Router } from '@latchkey/runtime';
import type { Guard } from '../../http/caller.ts';
import type { createAuthService } from './auth.service.ts';
import type { SessionsService } from './sessions.service.ts';

export function authRoutes(router: Router, guard: Guard, auth: ReturnType<typeof createAuthService>, sessions: SessionsService) {
  router.handle(loginEndpoint, guard, ({ input, request }) => auth.checkEmail(input, request.ip));
  router.handle(verifyPasswordEndpoint, guard, ({ input, request }) => auth.verifyPassword(input, request.ip));
  router.handle(verifyOtpEndpoint, guard, ({ input, request }) => auth.verifyOtp(input, request.ip));
  router.handle(verifyTotpEndpoint, guard, ({ input, request }) => auth.verifyTotp(input, request.ip));
  router.handle(verifyRecoveryCodeEndpoint, guard, ({ input, request }) => auth.verifyRecoveryCode(input, request.ip));
  router.handle(setPasswordFirstLoginEndpoint, guard, ({ input, request }) => auth.setFirstPasswordAndSignIn(input, request.ip));
  router.handle(u2fSignInOptionsEndpoint, guard, ({ input, request }) => auth.securityKeyOptions(input, request.ip));
  router.handle(verifyU2fEndpoint, guard, ({ input, request }) => auth.verifySecurityKey(input, request.ip));
  router.handle(refreshTokenEndpoint, guard, ({ input }) => sessions.rotate(input.refresh_token));
  router.handle(signoutEndpoint, guard, async ({ ctx, input, request }) => {
    if (ctx) {
      await sessions.revoke(ctx.sessionId, 'signed_out');
      // A team switch is its own event, else the sign-out.
      if (input.reason === 'team_switch') await auth.recordTeamSwitch(ctx, request.ip, input.to_team ?? '');
      else await auth.recordSignOut(ctx, request.ip);
    }
    return { code: 'signed_out' as const };
  });
}
