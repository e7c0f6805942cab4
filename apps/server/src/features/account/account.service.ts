import type { SecurityKind } from '@latchkey/contracts';
import type { Sealer } from '@latchkey/runtime';
import { AppError, type Db, type Queryable } from '@latchkey/runtime';
import type { CodeHasher } from '../../platform/code-hasher.ts';
import { type Limiter, type LimitKind, LimitReached } from '../../platform/limits.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import { matchTotp, newTotpSecret, totpUri } from '../../platform/totp.ts';
import { recordSecurityEvent } from '../eventlogs/index.ts';
import type { HubSessionEnder } from '../integration/index.ts';
import { type UserRow, usersRepository } from '../users/index.ts';
import { accountRepository as repo } from './account.repository.ts';
import { newRecoveryCodes, recoveryCodeInput } from './recovery-codes.ts';
import type { RelyingParty, SecurityKeys } from './security-keys.ts';

const keyNotFound = () =>
  new AppError('not_found', 'No such security key on your account.').shows('errors.security_key_not_found');

/**
 * Ends an admin's console sessions: the auth room's, handed in by the composition root (sign-in
 * builds on this room, so this room cannot ask auth itself).
 */
export interface SessionEnds {
  /** Every live session of the admin but one; returns the sessions ended. */
  revokeOthersOfUser(q: Queryable, userId: string, keepSessionId: string, reason: string): Promise<string[]>;
  /** Every live session of the admin. */
  revokeAllOfUser(q: Queryable, userId: string, reason: string): Promise<void>;
}

export interface AccountCaller {
  userId: string;
  sessionId: string;
  teamId: string;
  ip: string;
}

/**
 * The signed-in admin's own account security (spec §7 "With team"): auth type, password,
 * authenticator app and backup codes. Every change that could lock someone out or let someone in
 * asks for proof first (the password, or a code from the current authenticator), behind the same
 * brute-force limits as sign-in, and is recorded as a security event.
 */
export function createAccountService({
  db,
  limiter,
  sealer,
  codes: codeHasher,
  keys,
  relyingParty,
  hubSessions,
  sessionEnds,
}: {
  sessionEnds: Pick<SessionEnds, 'revokeOthersOfUser'>;
  /** Tells the team's Hubs which sessions ended (features/integration/hub-session-ender.ts). */
  hubSessions: HubSessionEnder;
  db: Db;
  limiter: Limiter;
  sealer: Sealer;
  codes: CodeHasher;
  keys: SecurityKeys;
  relyingParty: () => RelyingParty | null;
}) {
  const rpOf = () => {
    const rp = relyingParty();
    if (!rp) throw new AppError('invalid_input', 'Security keys need PUBLIC_URL to be set.');
    return rp;
  };

  async function me(caller: AccountCaller): Promise<UserRow> {
    const user = await usersRepository.findUserById(db, caller.userId);
    if (!user) throw new AppError('unauthorized', 'The account no longer exists.', 401);
    return user;
  }

  const event = (caller: AccountCaller, user: UserRow, kind: SecurityKind, detail: Record<string, unknown> = {}) =>
    recordSecurityEvent(db, {
      kind,
      email: user.email,
      userId: user.id,
      teamId: caller.teamId,
      ip: caller.ip,
      detail,
    });

  async function limited(kind: LimitKind, caller: AccountCaller, user: UserRow, check: () => Promise<boolean>) {
    let attempt: Awaited<ReturnType<Limiter['begin']>>;
    try {
      attempt = await limiter.begin(kind, user.id, caller.ip);
    } catch (error) {
      if (error instanceof LimitReached)
        await event(caller, user, 'account_check_failed', { reason: `too_many_attempts:${kind}` });
      throw error;
    }
    const ok = await check();
    if (ok) await attempt.succeeded();
    else {
      await attempt.failed();
      await event(caller, user, 'account_check_failed', { reason: kind });
    }
    return ok;
  }

  async function requirePassword(caller: AccountCaller, user: UserRow, password: string) {
    if (!(await limited('password', caller, user, () => verifyPassword(user.password_hash, password)))) {
      throw new AppError('password_invalid', 'The password is not correct.');
    }
  }

  /** A code from the current authenticator, accepted once. */
  async function requireTotp(caller: AccountCaller, user: UserRow, code: string) {
    if (!user.totp_secret)
      throw new AppError('totp_not_enabled', 'No authenticator app is set up.').shows('errors.totp_not_enabled');
    const sealed = user.totp_secret;
    const ok = await limited('totp', caller, user, async () => {
      const step = await matchTotp(sealer.open(sealed), code, user.totp_last_step === null ? null : Number(user.totp_last_step));
      return step !== null && (await usersRepository.useTotpStep(db, user.id, step));
    });
    if (!ok) throw new AppError('totp_invalid', 'The code is invalid or has expired.');
  }

  async function startSetup(user: UserRow) {
    const secret = newTotpSecret();
    await usersRepository.setPendingTotp(db, user.id, sealer.seal(secret));
    return { secret, otpauth_url: totpUri(secret, user.email) };
  }

  /** Confirms the pending secret with its first code; returns the step it matched. */
  async function confirmSetup(caller: AccountCaller, user: UserRow, code: string): Promise<number> {
    const pending = await usersRepository.pendingTotp(db, user.id);
    if (!pending) throw new AppError('totp_not_enabled', 'Start the set-up again.').shows('errors.totp_start_again');
    const found: { step: number | null } = { step: null };
    await limited('totp', caller, user, async () => {
      found.step = await matchTotp(sealer.open(pending), code, null);
      return found.step !== null;
    });
    if (found.step === null) throw new AppError('totp_invalid', 'The code is invalid or has expired.');
    return found.step;
  }

  async function issueRecoveryCodes(q: Pick<Db, 'query'>, userId: string): Promise<string[]> {
    const codes = newRecoveryCodes();
    await repo.replaceRecoveryCodes(
      q,
      userId,
      codes.map((c) => codeHasher.hash(recoveryCodeInput(userId, c))),
    );
    return codes;
  }

  return {
    async summary(caller: AccountCaller) {
      const user = await me(caller);
      return {
        auth_type: user.auth_type,
        has_password: user.password_hash !== null,
        totp_enabled: user.totp_secret !== null,
        recovery_codes_left: user.totp_secret ? await repo.recoveryCodesLeft(db, user.id) : 0,
        security_keys: await keys.count(user.id),
      };
    },

    async updateAuthType(caller: AccountCaller, authType: 'password' | 'otp', password: string) {
      const user = await me(caller);
      if (!user.password_hash) throw new AppError('password_not_set', 'Set a password first.').shows('errors.password_not_set');
      await requirePassword(caller, user, password);
      // Emailed codes alone would bypass the authenticator: remove it knowingly, not by accident.
      if (authType === 'otp' && (user.totp_secret || (await keys.count(user.id)) > 0)) {
        throw new AppError(
          'totp_already_enabled',
          'Sign-in with emailed codes only is not possible while an authenticator app or a security key is set up.',
        ).shows('errors.emailed_codes_blocked');
      }
      await usersRepository.setAuthType(db, user.id, authType);
      await event(caller, user, 'auth_type_changed', { from: user.auth_type, to: authType });
      return { code: 'updated' as const, auth_type: authType };
    },

    async changePassword(caller: AccountCaller, oldPassword: string, newPassword: string) {
      const user = await me(caller);
      if (!user.password_hash)
        throw new AppError('password_not_set', 'Set a first password instead.').shows('errors.password_not_set');
      await requirePassword(caller, user, oldPassword);
      if (newPassword === oldPassword) {
        throw new AppError('invalid_password_validation', 'The new password must differ from the current one.').shows(
          'errors.password_same_as_current',
        );
      }
      const hash = await hashPassword(newPassword);
      const ended = await db.transaction(async (tx) => {
        await usersRepository.setPassword(tx, user.id, hash);
        // Whoever knew the old password may hold a session: only this one stays.
        return sessionEnds.revokeOthersOfUser(tx, user.id, caller.sessionId, 'password_changed');
      });
      if (ended.length > 0) await hubSessions.sessionsEnded({ sessionIds: ended });
      await event(caller, user, 'password_changed');
      return { code: 'password_changed' as const };
    },

    async setFirstPassword(caller: AccountCaller, password: string, confirm: string) {
      const user = await me(caller);
      if (user.password_hash) throw new AppError('invalid_input', 'A password is already set: change it instead.');
      if (password !== confirm) throw new AppError('password_mismatch', 'The passwords do not match.');
      await usersRepository.setPassword(db, user.id, await hashPassword(password));
      await event(caller, user, 'password_set');
      return { code: 'password_set' as const };
    },

    async totpRegister(caller: AccountCaller) {
      const user = await me(caller);
      if (user.totp_secret)
        throw new AppError('totp_already_enabled', 'An authenticator app is already set up.').shows(
          'errors.totp_already_enabled',
        );
      if (user.auth_type !== 'password' || !user.password_hash) {
        throw new AppError(
          'password_not_set',
          'An authenticator app is a second step after the password: sign in with a password first.',
        ).shows('errors.totp_needs_password');
      }
      return startSetup(user);
    },

    async totpRegisterVerify(caller: AccountCaller, code: string) {
      const user = await me(caller);
      if (user.totp_secret)
        throw new AppError('totp_already_enabled', 'An authenticator app is already set up.').shows(
          'errors.totp_already_enabled',
        );
      const step = await confirmSetup(caller, user, code);
      const codes = await db.transaction(async (tx) => {
        if (!(await usersRepository.activatePendingTotp(tx, user.id, step)))
          throw new AppError('totp_not_enabled', 'Start the set-up again.').shows('errors.totp_start_again');
        return issueRecoveryCodes(tx, user.id);
      });
      await event(caller, user, 'totp_enabled');
      return { recovery_codes: codes };
    },

    async totpChange(caller: AccountCaller, code: string) {
      const user = await me(caller);
      await requireTotp(caller, user, code);
      return startSetup(user);
    },

    async totpChangeVerify(caller: AccountCaller, code: string) {
      const user = await me(caller);
      if (!user.totp_secret)
        throw new AppError('totp_not_enabled', 'No authenticator app is set up.').shows('errors.totp_not_enabled');
      const step = await confirmSetup(caller, user, code);
      if (!(await usersRepository.activatePendingTotp(db, user.id, step)))
        throw new AppError('totp_not_enabled', 'Start the change again.').shows('errors.totp_start_again');
      await event(caller, user, 'totp_changed');
      return { code: 'totp_changed' as const };
    },

    async securityKeyOptions(caller: AccountCaller) {
      const user = await me(caller);
      if (user.auth_type !== 'password' || !user.password_hash) {
        throw new AppError(
          'password_not_set',
          'A security key is a second step after the password: sign in with a password first.',
        ).shows('errors.security_key_needs_password');
      }
      return { options: await keys.registrationOptions(user, rpOf()) };
    },

    async addSecurityKey(caller: AccountCaller, response: Record<string, unknown>, name: string) {
      const user = await me(caller);
      await keys.register(user.id, response, name, rpOf());
      await event(caller, user, 'security_key_added');
      return { code: 'security_key_added' as const };
    },

    async securityKeysList(caller: AccountCaller) {
      const keyRows = await keys.describe(caller.userId);
      return {
        keys: keyRows.map((k) => ({
          id: k.id,
          name: k.name,
          created_at: new Date(k.created_at).toISOString(),
          last_used_at: k.last_used_at ? new Date(k.last_used_at).toISOString() : null,
        })),
      };
    },

    async renameSecurityKey(caller: AccountCaller, id: string, name: string) {
      const user = await me(caller);
      if (!(await keys.rename(user.id, id, name))) throw keyNotFound();
      await event(caller, user, 'security_key_renamed', { id });
      return { code: 'security_key_renamed' as const };
    },

    /** Taking a second factor away asks for the password, like every change that weakens sign-in. */
    async removeSecurityKey(caller: AccountCaller, id: string, password: string) {
      const user = await me(caller);
      if (!user.password_hash) throw new AppError('password_not_set', 'Set a password first.').shows('errors.password_not_set');
      await requirePassword(caller, user, password);
      if (!(await keys.remove(user.id, id))) throw keyNotFound();
      await event(caller, user, 'security_key_removed', { id });
      return { code: 'security_key_removed' as const };
    },

    async regenerateRecoveryCodes(caller: AccountCaller, code: string) {
      const user = await me(caller);
      await requireTotp(caller, user, code);
      const codes = await db.transaction((tx) => issueRecoveryCodes(tx, user.id));
      await event(caller, user, 'recovery_codes_regenerated');
      return { recovery_codes: codes };
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
