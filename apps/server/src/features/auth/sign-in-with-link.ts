import { AppError } from '@latchkey/runtime';
import { recordSecurityEvent } from '../eventlogs/index.ts';
import { type LoginTokenPurpose, loginTokensRepository as tokens } from './login-tokens.ts';
import type { AuthDeps, SignInSteps } from './sign-in-steps.ts';

/** Signing in by a one-time link (the family app, the SSO return), and reading an invitation's link. */
export function createLinkSignIn({ db, sessions }: AuthDeps, { invalidLink, linkOwner, finish }: SignInSteps) {
  return {
    /**
     * family/{token} and the SSO return: spends the one-time token and signs its admin in. A
     * token that is unknown, used or expired is a 401 (spec §8: the console then logs out with
     * app_initiated_login_failed).
     */
    async signInWithLink(purpose: Extract<LoginTokenPurpose, 'app_login' | 'sso'>, token: string, ip: string) {
      const link = await tokens.spend(db, purpose, token);
      const owner = await linkOwner(link);
      if (!owner) {
        await recordSecurityEvent(db, { kind: 'sign_in_failed', ip, detail: { reason: `${purpose}_token_invalid` } });
        throw new AppError('unauthorized', 'The sign-in link is invalid, used or expired.', 401);
      }
      const success = await finish(
        owner.user,
        owner.team,
        ip,
        purpose === 'app_login' ? 'family_app' : 'sso',
        link?.not_after ?? null,
      );
      return { ...success, email: owner.user.email };
    },

    /** A family team's owner, signed in (the family app's session), asks for a console link. */
    async issueAppLoginToken(caller: { userId: string; sessionId: string; team: { id: string } }) {
      // The console session this link starts ends when the family app's session does.
      const parentEnd = await sessions.absoluteEnd(caller.sessionId);
      const token = await tokens.issue(db, 'app_login', caller.userId, caller.team.id, parentEnd);
      return { token, expires_in: 120 };
    },

    /** The email-link verification page: whose invitation this is, without spending it. */
    async emailLink(token: string) {
      const owner = await linkOwner(await tokens.peek(db, 'onboarding', token));
      if (!owner || owner.user.password_hash) throw invalidLink();
      return { email: owner.user.email, team_slug: owner.team.slug, team_name: owner.team.name };
    },
  };
}
