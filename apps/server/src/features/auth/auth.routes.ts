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
import { registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import type { Guard } from '../../http/guard.ts';
import type { createAuthService } from './auth.service.ts';
import type { SessionsService } from './sessions.service.ts';

export function authRoutes(
  app: FastifyInstance,
  guard: Guard,
  auth: ReturnType<typeof createAuthService>,
  sessions: SessionsService,
) {
  registerEndpoint(app, loginEndpoint, guard, ({ input, request }) => auth.checkEmail(input, request.ip));
  registerEndpoint(app, verifyPasswordEndpoint, guard, ({ input, request }) => auth.verifyPassword(input, request.ip));
  registerEndpoint(app, verifyOtpEndpoint, guard, ({ input, request }) => auth.verifyOtp(input, request.ip));
  registerEndpoint(app, verifyTotpEndpoint, guard, ({ input, request }) => auth.verifyTotp(input, request.ip));
  registerEndpoint(app, verifyRecoveryCodeEndpoint, guard, ({ input, request }) => auth.verifyRecoveryCode(input, request.ip));
  registerEndpoint(app, setPasswordFirstLoginEndpoint, guard, ({ input, request }) =>
    auth.setFirstPasswordAndSignIn(input, request.ip),
  );
  registerEndpoint(app, u2fSignInOptionsEndpoint, guard, ({ input, request }) => auth.securityKeyOptions(input, request.ip));
  registerEndpoint(app, verifyU2fEndpoint, guard, ({ input, request }) => auth.verifySecurityKey(input, request.ip));
  registerEndpoint(app, refreshTokenEndpoint, guard, ({ input }) => sessions.rotate(input.refresh_token));
  registerEndpoint(app, signoutEndpoint, guard, async ({ ctx, request }) => {
    if (ctx) {
      await sessions.revoke(ctx.sessionId, 'signed_out');
      await auth.recordSignOut(ctx, request.ip);
    }
    return { code: 'signed_out' as const };
  });
}
