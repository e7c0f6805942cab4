import type { EndpointOutput, LoginSuccess, loginEndpoint } from '@latchkey/contracts';
import { OTP_LENGTH, type Scope } from '@latchkey/contracts';
import type { Sealer } from '@latchkey/runtime';
import { AppError, type Db, numericCode, type Queryable } from '@latchkey/runtime';
import type { CallerTeam } from '../../http/caller.ts';
import type { CodeHasher } from '../../platform/code-hasher.ts';
import { type Limiter, type LimitKind, LimitReached } from '../../platform/limits.ts';
import type { MailOutbox } from '../../platform/mail.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import type { RelyingParty, SecurityKeys } from '../account/index.ts';
import { recordSecurityEvent } from '../eventlogs/index.ts';
import { type ServerKey, teamHubsRepository } from '../integration/index.ts';
import { type UserRow, usersRepository as users } from '../users/index.ts';
import { authRepository as repo } from './auth.repository.ts';
import { issueAuxGrant } from './aux-grant.ts';
import { loginTokensRepository as tokens } from './login-tokens.ts';
import type { SessionsService } from './sessions.service.ts';

export const MAX_CODE_ATTEMPTS = 5;
/** What an emailed code's keyed hash covers: bound to the user and team it was sent for. */
export const emailCodeInput = (userId: string, teamId: string, code: string) => `email:${userId}:${teamId}:${code}`;
/** How long the set-password token of a set_password_first reply works. */
export const SET_PASSWORD_MINUTES = 10;

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
  /** Teams where the person is an administrator, by name: the team room's (it builds on this one), handed in. */
  adminTeams: AdminTeams;
  /** The team's SSO as sign-in needs it: the SSO room's (it builds on this one), handed in. */
  sso: SignInSso;
}

/** A team the person administers, with their scopes in it. */
export type Team = Pick<CallerTeam, 'id' | 'slug' | 'name' | 'team_type' | 'organization_type'> & { scopes: Scope[] };
export type AdminTeams = (q: Queryable, userId: string) => Promise<Team[]>;

export interface SignInSso {
  activeConfigs(q: Queryable, teamId: string): Promise<{ config_uuid: string; config_name: string }[]>;
  /** Whether the team holds this admin to SSO (spec §6, with its break-glass rule). */
  enforcedFor(q: Queryable, teamId: string, userId: string): Promise<boolean>;
}

/**
 * The steps every way of signing in is made of: finding the admin and the team, the brute-force
 * limits of `../security/limits.ts` around each factor, the emailed code, the password check, and
 * the session that ends a sign-in. Every failure is a security event.
 */
export function createSignInSteps({
  db,
  mail,
  sessions,
  limiter,
  codes,
  emailCodeTtlMinutes,
  hubKey,
  adminTeams: teamsOf,
  sso,
}: AuthDeps) {
  const failed = (reason: string, ip: string, user?: UserRow, teamId?: string) =>
    recordSecurityEvent(db, {
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
      await recordSecurityEvent(db, { kind: 'sign_in_failed', email, ip, detail: { reason: 'email_notregistered' } });
      throw new AppError('email_notregistered', 'This email is not registered.');
    }
    return user;
  }

  /** The team the person administers with that slug, or the one team they administer. */
  async function adminTeam(user: UserRow, teamSlug: string | undefined, ip: string) {
    const teams = await teamsOf(db, user.id);
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
    if (await sso.enforcedFor(db, team.id, user.id)) {
      await failed('sso_enforced', ip, user, team.id);
      throw new AppError('sso_enforced', 'This team signs in with SSO.').shows('errors.sso_enforced');
    }
    return { user, team };
  }

  const invalidLink = () => new AppError('invalid_link', 'This link is invalid or has expired.');

  /** The admin and team of a link's token, when the admin still administers that team. */
  async function linkOwner(row: { user_id: string; team_id: string } | undefined) {
    const user = row && (await users.findUserById(db, row.user_id));
    const team = user && (await teamsOf(db, user.id)).find((t) => t.id === row?.team_id);
    return user && team ? { user, team } : undefined;
  }

  /** An onboarding invitation's link: its email gets a code, and verify/otp then spends the link. */
  async function startOnboarding(token: string, ip: string): Promise<EndpointOutput<typeof loginEndpoint>> {
    const owner = await linkOwner(await tokens.peek(db, 'onboarding', token));
    if (!owner || owner.user.password_hash) {
      await recordSecurityEvent(db, { kind: 'sign_in_failed', ip, detail: { reason: 'onboarding_link_invalid' } });
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
    const [hub] = await teamHubsRepository.setUp(db, team.id);
    const aux_code = hub?.services.integration?.enabled
      ? issueAuxGrant(hubKey, hub, {
          userId: user.id,
          email: user.email,
          teamSlug: team.slug,
          scopes: team.scopes,
          sessionId,
          sessionExpiresAt: absolute,
          teamType: team.team_type,
          organizationType: team.organization_type,
        })
      : null;
    await recordSecurityEvent(db, {
      kind: 'sign_in',
      email: user.email,
      userId: user.id,
      teamId: team.id,
      ip,
      detail: { method },
    });
    return { token, team_slug: team.slug, aux_code };
  }

  return {
    failed,
    userOrFail,
    adminTeam,
    userAndTeam,
    invalidLink,
    linkOwner,
    startOnboarding,
    limited,
    sendCode,
    checkPassword,
    totpOn,
    finish,
  };
}

export type SignInSteps = ReturnType<typeof createSignInSteps>;
