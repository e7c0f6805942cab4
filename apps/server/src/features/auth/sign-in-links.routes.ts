import {
  appLoginTokenEndpoint,
  appLoginVerifyEndpoint,
  emailLinkVerifyEndpoint,
  LinkToken,
  ssoVerifyTokenEndpoint,
} from '@latchkey/contracts';
import { AppError, type Router } from '@latchkey/runtime';
import { type Guard, requireCaller } from '../../http/caller.ts';
import type { createAuthService } from './auth.service.ts';

/** The token of 'Authorization: Basic {token}' (spec §7); anything else is a 401 like a bad token. */
function basicToken(header: string | undefined): string {
  const parsed = LinkToken.safeParse(header?.startsWith('Basic ') ? header.slice(6).trim() : '');
  if (!parsed.success) throw new AppError('unauthorized', 'The sign-in link is invalid, used or expired.', 401);
  return parsed.data;
}

/** Sign-ins that start outside the login form: the family app, the SSO return, onboarding links. */
export function signInLinkRoutes(router: Router, guard: Guard, auth: ReturnType<typeof createAuthService>) {
  router.handle(appLoginTokenEndpoint, guard, ({ ctx }) => auth.issueAppLoginToken(requireCaller(ctx)));
  router.handle(appLoginVerifyEndpoint, guard, ({ request }) =>
    auth.signInWithLink('app_login', basicToken(request.headers.authorization), request.ip),
  );
  router.handle(emailLinkVerifyEndpoint, guard, ({ input }) => auth.emailLink(input.token));
  router.handle(ssoVerifyTokenEndpoint, guard, ({ input, request }) => auth.signInWithLink('sso', input.token, request.ip));
}
