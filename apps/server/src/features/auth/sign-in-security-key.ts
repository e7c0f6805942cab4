import { AppError } from '@latchkey/runtime';
import type { AuthDeps, SignInSteps } from './sign-in-steps.ts';

/** The second factor by security key (WebAuthn): the challenge, then the key's answer. */
export function createSecurityKeySignIn(
  { keys, relyingParty }: AuthDeps,
  { failed, userAndTeam, limited, checkPassword, finish }: SignInSteps,
) {
  return {
    /** /login/u2f: after the password, the challenge for one of the admin's security keys. */
    async securityKeyOptions(input: { email: string; password: string; team_slug: string }, ip: string) {
      const { user, team } = await userAndTeam(input.email, input.team_slug, ip);
      await checkPassword(user, input.password, team, ip);
      const rp = relyingParty();
      if (!rp || (await keys.count(user.id)) === 0) throw new AppError('invalid_input', 'No security key can be used here.');
      return { options: await keys.signInOptions(user.id, rp) };
    },

    async verifySecurityKey(
      input: { email: string; password: string; team_slug: string; response: Record<string, unknown> },
      ip: string,
    ) {
      const { user, team } = await userAndTeam(input.email, input.team_slug, ip);
      await checkPassword(user, input.password, team, ip);
      const rp = relyingParty();
      const valid = await limited('security_key', user, team, ip, async () =>
        rp ? keys.check(user.id, input.response, rp) : false,
      );
      if (!valid) {
        await failed('security_key_invalid', ip, user, team.id);
        throw new AppError('u2f_invalid', 'The security key was not accepted. Try again.').shows('errors.security_key_rejected');
      }
      return finish(user, team, ip, 'password_security_key');
    },
  };
}
