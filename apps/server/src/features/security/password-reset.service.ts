import { AppError, type Db, hashToken, randomToken } from '@latchkey/runtime';
import type { Mailer } from '../../platform/mail.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { teamRepository } from '../team/index.ts';
import { usersRepository } from '../users/index.ts';
import { accountRepository } from './account.repository.ts';
import { type Limiter, LimitReached } from './limits.ts';
import { passwordResetRepository as repo } from './password-reset.repository.ts';

/** How long a reset link works. Short: it is as good as the password until used. */
export const RESET_LINK_MINUTES = 30;

const invalidLink = () => new AppError('invalid_link', 'This link is invalid or has expired. Ask for a new one.');

/**
 * Self-service password reset from /login/forgot-password: a single-use link by email, valid 30
 * minutes. Choosing it over a super admin's reset: the second step (emailed code or authenticator)
 * is still asked at every sign-in, so the link alone never signs anyone in; the authenticator stays.
 */
export function createPasswordResetService(deps: {
  db: Db;
  mailer: Mailer;
  limiter: Limiter;
  /** The console's public address; null when links cannot be sent. */
  consoleUrl: (requestOrigin: string | undefined) => string | null;
}) {
  const { db, mailer, limiter } = deps;
  return {
    async request(email: string, ip: string, requestOrigin: string | undefined) {
      const user = await usersRepository.findUserByEmail(db, email);
      const teams = user ? await teamRepository.adminTeams(db, user.id) : [];
      const base = deps.consoleUrl(requestOrigin);
      if (!user || teams.length === 0 || !base) {
        await usersRepository.recordSecurityEvent(db, {
          kind: 'password_reset_refused',
          email,
          userId: user?.id,
          ip,
          detail: { reason: !user ? 'email_notregistered' : teams.length === 0 ? 'admin_not_found' : 'no_public_url' },
        });
        return { code: 'reset_requested' as const };
      }
      try {
        await limiter.begin('code_mail', user.id, ip);
      } catch (error) {
        if (error instanceof LimitReached) {
          await usersRepository.recordSecurityEvent(db, {
            kind: 'password_reset_refused',
            email,
            userId: user.id,
            ip,
            detail: { reason: 'too_many_attempts:code_mail' },
          });
        }
        throw error;
      }
      const token = randomToken(32);
      await repo.create(db, user.id, hashToken(token), new Date(Date.now() + RESET_LINK_MINUTES * 60_000));
      const link = `${base}/#/reset-password?password_request=${encodeURIComponent(token)}`;
      await mailer.send({
        to: user.email,
        subject: 'Reset your Latchkey admin console password',
        text: `Someone (hopefully you) asked to set a new password for the Latchkey admin console.\n\nSet a new password: ${link}\n\nThe link works once, for ${RESET_LINK_MINUTES} minutes. If you did not ask for it, ignore this email: your password stays as it is.`,
      });
      await usersRepository.recordSecurityEvent(db, { kind: 'password_reset_requested', email, userId: user.id, ip });
      return { code: 'reset_requested' as const };
    },

    async validate(token: string) {
      const found = await repo.findValid(db, hashToken(token));
      if (!found) throw invalidLink();
      return { code: 'valid' as const, email: found.email };
    },

    async change(token: string, password: string, confirm: string, ip: string) {
      if (password !== confirm) throw new AppError('password_mismatch', 'The passwords do not match.');
      const hash = await hashPassword(password);
      const userId = await db.transaction(async (tx) => {
        const id = await repo.consume(tx, hashToken(token));
        if (!id) return undefined;
        await accountRepository.setPassword(tx, id, hash);
        // Whoever had the old password may hold a session: every session ends.
        await repo.revokeAllSessions(tx, id, 'password_reset');
        return id;
      });
      if (!userId) throw invalidLink();
      await usersRepository.recordSecurityEvent(db, { kind: 'password_reset', userId, ip });
      return { code: 'password_reset' as const };
    },
  };
}
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
