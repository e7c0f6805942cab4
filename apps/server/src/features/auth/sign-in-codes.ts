import type { LoginSuccess } from '@latchkey/contracts';
import { AppError, hashToken, randomToken } from '@latchkey/runtime';
import { matchTotp } from '../../platform/totp.ts';
import { accountRepository, passwordResetRepository, recoveryCodeInput } from '../account/index.ts';
import { usersRepository } from '../users/index.ts';
import { authRepository as repo } from './auth.repository.ts';
import { loginTokensRepository as tokens } from './login-tokens.ts';
import { type AuthDeps, emailCodeInput, MAX_CODE_ATTEMPTS, SET_PASSWORD_MINUTES, type SignInSteps } from './sign-in-steps.ts';

/** The second factor by code: an emailed code, an authenticator's code, or a backup code. */
export function createCodeSignIn(
  { db, limiter, sealer, codes, keys }: AuthDeps,
  { failed, userAndTeam, invalidLink, limited, checkPassword, totpOn, finish }: SignInSteps,
) {
  /** Password + one backup code, for the admin who lost the authenticator; each code works once. */
  async function recoveryCodeSignIn(
    input: { email: string; password: string; team_slug: string; recovery_code: string },
    ip: string,
  ) {
    const { user, team } = await userAndTeam(input.email, input.team_slug, ip);
    await checkPassword(user, input.password, team, ip);
    const valid = await limited(
      'backup_code',
      user,
      team,
      ip,
      async () =>
        totpOn(user) &&
        (await accountRepository.useRecoveryCode(db, user.id, codes.candidates(recoveryCodeInput(user.id, input.recovery_code)))),
    );
    if (!valid) {
      await failed('code_invalid', ip, user, team.id);
      throw new AppError('code_invalid', 'The backup code is invalid or was already used.');
    }
    return finish(user, team, ip, 'password_backup_code');
  }

  return {
    async verifyOtp(
      input: {
        email: string;
        otp?: string | undefined;
        password?: string | undefined;
        team_slug: string;
        on_boarding_verification?: string | undefined;
        recovery_code?: string | undefined;
      },
      ip: string,
    ): Promise<LoginSuccess | { code: 'set_password_first'; set_auth_token: string }> {
      // Spec §7: verify/otp also takes recovery_code — the admin who lost the authenticator signs in with
      // the password and one backup code (each works once), the same check as verify/recovery/code/.
      if (input.recovery_code !== undefined) {
        return recoveryCodeSignIn(
          { email: input.email, password: input.password ?? '', team_slug: input.team_slug, recovery_code: input.recovery_code },
          ip,
        );
      }
      const otp = input.otp ?? '';
      const { user, team } = await userAndTeam(input.email, input.team_slug, ip);
      const needsFirstPassword = user.auth_type === 'password' && !user.password_hash;
      if (user.auth_type === 'password' && !needsFirstPassword) await checkPassword(user, input.password, team, ip);
      // An admin with an authenticator finishes with it (or a backup code), never with an email code.
      if (totpOn(user) || (user.auth_type === 'password' && (await keys.count(user.id)) > 0)) {
        await failed('otp_not_allowed', ip, user, team.id);
        throw new AppError('otp_invalid', 'This account signs in with its authenticator app.').shows(
          'errors.use_authenticator_app',
        );
      }
      const valid = await limited('email_code', user, team, ip, async () => {
        const code = await repo.latestEmailCode(db, user.id, team.id);
        return (
          code !== undefined &&
          code.expires_at.getTime() > Date.now() &&
          (await repo.spendEmailCodeAttempt(db, code.id, MAX_CODE_ATTEMPTS)) &&
          codes.matches(code.code_hash, emailCodeInput(user.id, team.id, otp)) &&
          (await repo.useEmailCode(db, code.id))
        );
      });
      if (!valid) {
        await failed('otp_invalid', ip, user, team.id);
        throw new AppError('otp_invalid', 'The code is invalid or has expired.');
      }
      await limiter.giveBack('code_mail', user.id, ip);
      if (input.on_boarding_verification) {
        const link = await tokens.spend(db, 'onboarding', input.on_boarding_verification);
        if (link?.user_id !== user.id || link.team_id !== team.id) {
          await failed('onboarding_link_invalid', ip, user, team.id);
          throw invalidLink();
        }
      }
      if (needsFirstPassword) {
        const token = randomToken(32);
        await passwordResetRepository.createSetFirst(
          db,
          user.id,
          hashToken(token),
          new Date(Date.now() + SET_PASSWORD_MINUTES * 60_000),
        );
        return { code: 'set_password_first', set_auth_token: token };
      }
      return finish(user, team, ip, user.auth_type === 'otp' ? 'email_code' : 'password_email_code');
    },

    async verifyTotp(input: { email: string; password: string; team_slug: string; totp: string }, ip: string) {
      const { user, team } = await userAndTeam(input.email, input.team_slug, ip);
      await checkPassword(user, input.password, team, ip);
      const valid = await limited('totp', user, team, ip, async () => {
        if (!totpOn(user) || !user.totp_secret) return false;
        const last = user.totp_last_step === null ? null : Number(user.totp_last_step);
        const step = await matchTotp(sealer.open(user.totp_secret), input.totp, last);
        if (step === null || !(await usersRepository.useTotpStep(db, user.id, step))) return false;
        // Sealed under a previous key (a rotation): move it to the current one now it is in use.
        const resealed = sealer.reseal(user.totp_secret);
        if (resealed) await usersRepository.resealTotpSecret(db, user.id, user.totp_secret, resealed);
        return true;
      });
      if (!valid) {
        await failed('totp_invalid', ip, user, team.id);
        throw new AppError('totp_invalid', 'The code is invalid or has expired.');
      }
      return finish(user, team, ip, 'password_totp');
    },

    verifyRecoveryCode: recoveryCodeSignIn,
  };
}
