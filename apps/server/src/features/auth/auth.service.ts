import { type EndpointInput, type EndpointOutput, type LoginSuccess, type loginEndpoint, OTP_LENGTH } from '@latchkey/contracts';
import { AppError, type Db, hashToken, numericCode, randomToken } from '@latchkey/runtime';
import type { CodeHasher } from '../../platform/code-hasher.ts';
import { type Limiter, type LimitKind, LimitReached } from '../../platform/limits.ts';
import type { MailOutbox } from '../../platform/mail.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import type { Sealer } from '../../platform/sealed.ts';
import { matchTotp } from '../../platform/totp.ts';
import type { RelyingParty, SecurityKeys } from '../account/index.ts';
import { accountRepository, passwordResetRepository, recoveryCodeInput } from '../account/index.ts';
import type { ServerKey } from '../integration/index.ts';
import { teamRepository } from '../team/index.ts';
import { type UserRow, usersRepository as users } from '../users/index.ts';
import { authRepository as repo } from './auth.repository.ts';
import { issueAuxGrant } from './aux-grant.ts';
import { type LoginTokenPurpose, loginTokensRepository as tokens } from './login-tokens.ts';
import type { SessionsService } from './sessions.service.ts';
import { ssoRepository } from './sso.repository.ts';

const MAX_CODE_ATTEMPTS = 5;
/** What an emailed code's keyed hash covers: bound to the user and team it was sent for. */
const emailCodeInput = (userId: string, teamId: string, code: string) => `email:${userId}:${teamId}:${code}`;
/** How long the set-password token of a set_password_first reply works. */
const SET_PASSWORD_MINUTES = 10;

export interface AuthDeps {
  db: Db;
  mail: MailOutbox;
  sessions: SessionsService;
  limiter: Limiter;
  sealer: Sealer;
  keys: SecurityKeys;
  relyingParty: () => RelyingParty | null;
  emailCodeTtlMinutes: number;
  codes: CodeHasher;
  /** Signs the aux grants a Hub exchanges (features/integration/server-key.ts). */
  hubKey: ServerKey;
}

type Team = Awaited<ReturnType<typeof teamRepository.adminTeams>>[number];

/**
 * The console sign-in sequence of spec §4: email → password → emailed code or authenticator
 * (or a backup code) → session. Every success and failure is a security event; every factor is
 * behind the brute-force limits of `../security/limits.ts`.
 */
export function createAuthService({
  db,
  mail,
  sessions,
  limiter,
  sealer,
  codes,
  keys,
  relyingParty,
  emailCodeTtlMinutes,
  hubKey,
}: AuthDeps) {
  const failed = (reason: string, ip: string, user?: UserRow, teamId?: string) =>
    users.recordSecurityEvent(db, {
      kind: 'sign_in_failed',
      email: user?.email,
      userId: user?.id,
      teamId,
      ip,
      detail: { reason },
    });

  async function userOrFail(email: string, ip: string): Promise<UserRow> {
    // Checked before the lookup, so a client over its limit learns nothing about any email.
    await limiter.checkEmailProbe(ip);
    const user = await users.findUserByEmail(db, email);
    if (!user) {
      await limiter.unknownEmail(ip);
      await users.recordSecurityEvent(db, { kind: 'sign_in_failed', email, ip, detail: { reason: 'email_notregistered' } });
      throw new AppError('email_notregistered', 'This email is not registered.');
    }
    return user;
  }

  /** The team the person administers with that slug, or the one team they administer. */
  async function adminTeam(user: UserRow, teamSlug: string | undefined, ip: string) {
    const teams = await teamRepository.adminTeams(db, user.id);
    if (teams.length === 0) {
      await failed('admin_not_found', ip, user);
      throw new AppError('admin_not_found', 'This email is not an administrator of any team.').shows(
        'errors.not_admin_of_any_team',
      );
    }
    if (!teamSlug) return { teams, team: teams.length === 1 ? teams[0] : undefined };
    const team = teams.find((t) => t.slug === teamSlug);
    if (!team) {
      await failed('admin_not_found', ip, user);
      throw new AppError('admin_not_found', 'This email is not an administrator of that team.').shows(
        'errors.not_admin_of_that_team',
      );
    }
    return { teams, team };
  }

  async function userAndTeam(email: string, teamSlug: string, ip: string): Promise<{ user: UserRow; team: Team }> {
    const user = await userOrFail(email, ip);
    const { team } = await adminTeam(user, teamSlug, ip);
    if (!team) throw new AppError('admin_not_found', 'Choose a team.').shows('errors.choose_team');
    // Enforced SSO is enforced here, not only by the console routing to it (spec §6).
    if (await ssoRepository.enforcedFor(db, team.id, user.id)) {
      await failed('sso_enforced', ip, user, team.id);
      throw new AppError('sso_enforced', 'This team signs in with SSO.').shows('errors.sso_enforced');
    }
    return { user, team };
  }

  const invalidLink = () => new AppError('invalid_link', 'This link is invalid or has expired.');

  /** The admin and team of a link's token, when the admin still administers that team. */
  async function linkOwner(row: { user_id: string; team_id: string } | undefined) {
    const user = row && (await users.findUserById(db, row.user_id));
    const team = user && (await teamRepository.adminTeams(db, user.id)).find((t) => t.id === row?.team_id);
    return user && team ? { user, team } : undefined;
  }

  /** An onboarding invitation's link: its email gets a code, and verify/otp then spends the link. */
  async function startOnboarding(token: string, ip: string): Promise<EndpointOutput<typeof loginEndpoint>> {
    const owner = await linkOwner(await tokens.peek(db, 'onboarding', token));
    if (!owner || owner.user.password_hash) {
      await users.recordSecurityEvent(db, { kind: 'sign_in_failed', ip, detail: { reason: 'onboarding_link_invalid' } });
      throw invalidLink();
    }
    await sendCode(owner.user, owner.team, ip);
    return { code: 'onboarding_otp_sent', email: owner.user.email, team_slug: owner.team.slug, team_name: owner.team.name };
  }

  /** Runs one guarded check: counted before it runs, given back when it passes. */
  async function limited(kind: LimitKind, user: UserRow, team: Team, ip: string, check: () => Promise<boolean>) {
    let attempt: Awaited<ReturnType<Limiter['begin']>>;
    try {
      attempt = await limiter.begin(kind, user.id, ip);
    } catch (error) {
      if (error instanceof LimitReached) await failed(`too_many_attempts:${kind}`, ip, user, team.id);
      throw error;
    }
    const ok = await check();
    await (ok ? attempt.succeeded() : attempt.failed());
    return ok;
  }

  async function sendCode(user: UserRow, team: Team, ip: string): Promise<void> {
    await limited('code_mail', user, team, ip, async () => false);
    const code = numericCode(OTP_LENGTH);
    // Keyed (codes.hash), and bound to the user and team so equal codes never share a stored value.
    const hash = codes.hash(emailCodeInput(user.id, team.id, code));
    // The code and its mail land together: no code without its mail on the way, and no mail for a code never stored.
    await db.transaction(async (tx) => {
      await repo.createEmailCode(tx, user.id, team.id, hash, new Date(Date.now() + emailCodeTtlMinutes * 60_000));
      await mail.send(
        tx,
        {
          to: user.email,
          subject: `Your Latchkey sign-in code: ${code}`,
          text: `Your code to sign in to the ${team.name} admin console is ${code}.\nIt expires in ${emailCodeTtlMinutes} minutes. If you did not try to sign in, ignore this email.`,
        },
        `sign-in-code:${hash}`,
      );
    });
  }

  async function checkPassword(user: UserRow, password: string | undefined, team: Team, ip: string): Promise<void> {
    const ok = await limited('password', user, team, ip, () => verifyPassword(user.password_hash, password ?? ''));
    if (ok) return;
    await failed('password_invalid', ip, user, team.id);
    throw new AppError('password_invalid', 'The password is not correct.');
  }

  const totpOn = (user: UserRow) => user.auth_type === 'password' && user.totp_secret !== null;

  async function finish(
    user: UserRow,
    team: Team,
    ip: string,
    method: string,
    notAfter: Date | null = null,
  ): Promise<LoginSuccess> {
    const { tokens: token, sessionId, absolute } = await sessions.start(user.id, team.id, notAfter, method);
    const [hub] = await teamRepository.hubs(db, team.id);
    const aux_code = hub?.services.integration?.enabled
      ? issueAuxGrant(hubKey, hub, {
          userId: user.id,
          email: user.email,
          teamSlug: team.slug,
          scopes: team.scopes,
          sessionId,
          sessionExpiresAt: absolute,
        })
      : null;
    await users.recordSecurityEvent(db, {
      kind: 'sign_in',
      email: user.email,
      userId: user.id,
      teamId: team.id,
      ip,
      detail: { method },
    });
    return { token, team_slug: team.slug, aux_code };
  }

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
    async checkEmail(input: EndpointInput<typeof loginEndpoint>, ip: string): Promise<EndpointOutput<typeof loginEndpoint>> {
      if (input.on_boarding_verification) return startOnboarding(input.on_boarding_verification, ip);
      const user = await userOrFail(input.email ?? '', ip);
      const { teams, team } = await adminTeam(user, input.team_slug, ip);
      if (!team) return { code: 'select_team', teams: teams.map((t) => ({ team_slug: t.slug, team_name: t.name })) };
      const of = { team_slug: team.slug, team_name: team.name };
      const sso = (await ssoRepository.activeConfigs(db, team.id)).map((c) => ({
        config_uuid: c.config_uuid,
        config_name: c.config_name,
      }));
      if (sso.length > 0 && (await ssoRepository.enforcedFor(db, team.id, user.id)))
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

    /**
     * family/{token} and the SSO return: spends the one-time token and signs its admin in. A
     * token that is unknown, used or expired is a 401 (spec §8: the console then logs out with
     * app_initiated_login_failed).
     */
    async signInWithLink(purpose: Extract<LoginTokenPurpose, 'app_login' | 'sso'>, token: string, ip: string) {
      const link = await tokens.spend(db, purpose, token);
      const owner = await linkOwner(link);
      if (!owner) {
        await users.recordSecurityEvent(db, { kind: 'sign_in_failed', ip, detail: { reason: `${purpose}_token_invalid` } });
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

    recordSignOut: (caller: { userId: string; email: string; team: { id: string } }, ip: string) =>
      users.recordSecurityEvent(db, { kind: 'sign_out', email: caller.email, userId: caller.userId, teamId: caller.team.id, ip }),

    /** The admin left this team for another (the console signs out with reason team_switch first). */
    recordTeamSwitch: (
      caller: { userId: string; email: string; team: { id: string; slug: string } },
      ip: string,
      toTeam: string,
    ) =>
      users.recordSecurityEvent(db, {
        kind: 'team_switch',
        email: caller.email,
        userId: caller.userId,
        teamId: caller.team.id,
        ip,
        detail: { from_team: caller.team.slug, to_team: toTeam },
      }),

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
        await accountRepository.setPassword(tx, user.id, hash);
        return true;
      });
      if (!done) {
        await failed('set_password_token_invalid', ip, user, team.id);
        throw new AppError('token_expired', 'The set-password step has expired. Sign in again.', 400);
      }
      await users.recordSecurityEvent(db, { kind: 'password_set', email: user.email, userId: user.id, teamId: team.id, ip });
      return finish(user, team, ip, 'email_code_first_password');
    },

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

    async verifyTotp(input: { email: string; password: string; team_slug: string; totp: string }, ip: string) {
      const { user, team } = await userAndTeam(input.email, input.team_slug, ip);
      await checkPassword(user, input.password, team, ip);
      const valid = await limited('totp', user, team, ip, async () => {
        if (!totpOn(user) || !user.totp_secret) return false;
        const last = user.totp_last_step === null ? null : Number(user.totp_last_step);
        const step = await matchTotp(sealer.open(user.totp_secret), input.totp, last);
        if (step === null || !(await accountRepository.useTotpStep(db, user.id, step))) return false;
        // Sealed under a previous key (a rotation): move it to the current one now it is in use.
        const resealed = sealer.reseal(user.totp_secret);
        if (resealed) await accountRepository.resealTotpSecret(db, user.id, user.totp_secret, resealed);
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
