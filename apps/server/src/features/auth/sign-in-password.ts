import type { EndpointInput, EndpointOutput, LoginSuccess, loginEndpoint } from '@latchkey/contracts';
import { AppError, hashToken } from '@latchkey/runtime';
import { hashPassword } from '../../platform/passwords.ts';
import { passwordResetRepository } from '../account/index.ts';
import { recordSecurityEvent } from '../eventlogs/index.ts';
import { usersRepository } from '../users/index.ts';
import type { AuthDeps, SignInSteps } from './sign-in-steps.ts';

/** The email step (which way this admin signs in), the password step, and setting a first password. */
export function createPasswordSignIn(
  { db, keys, sso: ssoOf }: AuthDeps,
  { failed, userOrFail, adminTeam, userAndTeam, startOnboarding, sendCode, checkPassword, totpOn, finish }: SignInSteps,
) {
  return {
    async checkEmail(input: EndpointInput<typeof loginEndpoint>, ip: string): Promise<EndpointOutput<typeof loginEndpoint>> {
      if (input.on_boarding_verification) return startOnboarding(input.on_boarding_verification, ip);
      const user = await userOrFail(input.email ?? '', ip);
      const { teams, team } = await adminTeam(user, input.team_slug, ip);
      if (!team) return { code: 'select_team', teams: teams.map((t) => ({ team_slug: t.slug, team_name: t.name })) };
      const of = { team_slug: team.slug, team_name: team.name };
      const sso = (await ssoOf.activeConfigs(db, team.id)).map((c) => ({
        config_uuid: c.config_uuid,
        config_name: c.config_name,
      }));
      if (sso.length > 0 && (await ssoOf.enforcedFor(db, team.id, user.id)))
        return { code: 'sso_enforced', ...of, sso_configurations: sso };
      // An admin who has no password yet proves the email first, then sets one (set_password_first).
      const otpOnly = user.auth_type === 'otp' || !user.password_hash;
      // With SSO on, an emailed-code admin chooses first; no code is sent until they choose it.
      if (otpOnly && sso.length > 0 && !input.signin_with_otp && !input.resend_otp)
        return { code: 'signin_with_sso_or_otp', ...of, sso_configurations: sso };
      if (otpOnly) await sendCode(user, team, ip);
      return {
        code: 'ok',
        ...of,
        auth_type: otpOnly ? 'otp' : 'password',
        is_sso_active: sso.length > 0,
        otp_sent: otpOnly,
        sso_configurations: sso,
      };
    },

    async verifyPassword(input: { email: string; password: string; team_slug: string }, ip: string) {
      const { user, team } = await userAndTeam(input.email, input.team_slug, ip);
      await checkPassword(user, input.password, team, ip);
      if (user.auth_type === 'password' && (await keys.count(user.id)) > 0) return { code: 'u2f_required' as const };
      if (totpOn(user)) return { code: 'totp_required' as const };
      await sendCode(user, team, ip);
      return { code: 'otp_sent' as const };
    },

    /** /login/set-password: the token of set_password_first, then the new password signs in. */
    async setFirstPasswordAndSignIn(
      input: { email: string; team_slug: string; token: string; password: string; confirm_password: string },
      ip: string,
    ): Promise<LoginSuccess> {
      const { user, team } = await userAndTeam(input.email, input.team_slug, ip);
      if (input.password !== input.confirm_password) throw new AppError('password_mismatch', 'The passwords do not match.');
      const hash = await hashPassword(input.password);
      const done = await db.transaction(async (tx) => {
        if (user.password_hash) return false;
        if (!(await passwordResetRepository.consumeSetFirst(tx, user.id, hashToken(input.token)))) return false;
        await usersRepository.setPassword(tx, user.id, hash);
        return true;
      });
      if (!done) {
        await failed('set_password_token_invalid', ip, user, team.id);
        throw new AppError('token_expired', 'The set-password step has expired. Sign in again.', 400);
      }
      await recordSecurityEvent(db, { kind: 'password_set', email: user.email, userId: user.id, teamId: team.id, ip });
      return finish(user, team, ip, 'email_code_first_password');
    },
  };
}
