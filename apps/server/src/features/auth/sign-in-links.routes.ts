import {
  appLoginTokenEndpoint,
  appLoginVerifyEndpoint,
  emailLinkVerifyEndpoint,
  LinkToken,
  ssoStartEndpoint,
  ssoVerifyTokenEndpoint,
} from '@latchkey/contracts';
import { AppError, registerEndpoint } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/guard.ts';
import type { createAuthService } from './auth.service.ts';

export const SIGN_IN_LINK_ENDPOINTS = [
  appLoginTokenEndpoint,
  appLoginVerifyEndpoint,
  emailLinkVerifyEndpoint,
  ssoStartEndpoint,
  ssoVerifyTokenEndpoint,
];

/** The token of 'Authorization: Basic {token}' (spec §7); anything else is a 401 like a bad token. */
function basicToken(header: string | undefined): string {
  const parsed = LinkToken.safeParse(header?.startsWith('Basic ') ? header.slice(6).trim() : '');
  if (!parsed.success) throw new AppError('unauthorized', 'The sign-in link is invalid, used or expired.', 401);
  return parsed.data;
}

/** Sign-ins that start outside the login form: the family app, the SSO return, onboarding links. */
export function signInLinkRoutes(app: FastifyInstance, guard: Guard, auth: ReturnType<typeof createAuthService>) {
  registerEndpoint(app, appLoginTokenEndpoint, guard, ({ ctx }) => auth.issueAppLoginToken(requireCaller(ctx)));
  registerEndpoint(app, appLoginVerifyEndpoint, guard, ({ request }) =>
    auth.signInWithLink('app_login', basicToken(request.headers.authorization), request.ip),
  );
  registerEndpoint(app, emailLinkVerifyEndpoint, guard, ({ input }) => auth.emailLink(input.token));
  registerEndpoint(app, ssoStartEndpoint, guard, ({ input, request }) => auth.ssoStart(input, request.ip));
  registerEndpoint(app, ssoVerifyTokenEndpoint, guard, ({ input, request }) =>
    auth.signInWithLink('sso', input.token, request.ip),
  );
}
