import { AppError, type Db, hashToken, randomToken } from '@latchkey/runtime';
import { type Limiter, LimitReached } from '../../platform/limits.ts';
import type { MailOutbox } from '../../platform/mail.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { recordSecurityEvent } from '../eventlogs/index.ts';
import type { HubSessionEnder } from '../integration/index.ts';
import { usersRepository } from '../users/index.ts';
import type { SessionEnds } from './account.service.ts';
import { passwordResetRepository as repo } from './password-reset.repository.ts';

/** How long a reset link works. Short: it is as good as the password until used. */
const RESET_LINK_MINUTES = 30;

const invalidLink = () => new AppError('invalid_link', 'This link is invalid or has expired. Ask for a new one.');

/**
 * Self-service password reset from /login/forgot-password: a single-use link by email, valid 30
 * minutes. Choosing it over a super admin's reset: the second step (emailed code or authenticator)
 * is still asked at every sign-in, so the link alone never signs anyone in; the authenticator stays.
 */
export function createPasswordResetService(deps: {
  db: Db;
  mail: MailOutbox;
  limiter: Limiter;
  /** The console's configured address (PUBLIC_URL); null when links cannot be sent. */
  consoleUrl: () => string | null;
  hubSessions: HubSessionEnder;
  /** Whether the person administers any team (the admins room's; it builds on this one, so it is handed in). */
  administersAnyTeam: (userId: string) => Promise<boolean>;
  /** Ends sessions (the auth room's, handed in: sign-in builds on this room). */
  sessionEnds: Pick<SessionEnds, 'revokeAllOfUser'>;
}) {
  const { db, mail, limiter } = deps;
  return {
    async request(email: string, ip: string) {
      const user = await usersRepository.findUserByEmail(db, email);
      const admin = user ? await deps.administersAnyTeam(user.id) : false;
      const base = deps.consoleUrl();
      if (!user || !admin || !base) {
        await recordSecurityEvent(db, {
          kind: 'password_reset_refused',
          email,
          userId: user?.id,
          ip,
          detail: { reason: !user ? 'email_notregistered' : !admin ? 'admin_not_found' : 'no_public_url' },
        });
        return { code: 'reset_requested' as const };
      }
      try {
        await limiter.begin('code_mail', user.id, ip);
      } catch (error) {
        if (error instanceof LimitReached) {
          await recordSecurityEvent(db, {
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
      const link = `${base}/#/reset-password?password_request=${encodeURIComponent(token)}`;
      await db.transaction(async (tx) => {
        await repo.create(tx, user.id, hashToken(token), new Date(Date.now() + RESET_LINK_MINUTES * 60_000));
        await mail.send(
          tx,
          {
            to: user.email,
            subject: 'Reset your Latchkey admin console password',
            text: `Someone (hopefully you) asked to set a new password for the Latchkey admin console.\n\nSet a new password: ${link}\n\nThe link works once, for ${RESET_LINK_MINUTES} minutes. If you did not ask for it, ignore this email: your password stays as it is.`,
          },
          `password-reset:${hashToken(token)}`,
        );
      });
      await recordSecurityEvent(db, { kind: 'password_reset_requested', email, userId: user.id, ip });
      return { code: 'reset_requested' as const };
    },

    async validate(token: string) {
      const found = await repo.findValid(db, hashToken(token));
      const user = found && (await usersRepository.findUserById(db, found.user_id));
      if (!user) throw invalidLink();
      return { code: 'valid' as const, email: user.email };
    },

    async change(token: string, password: string, confirm: string, ip: string) {
      if (password !== confirm) throw new AppError('password_mismatch', 'The passwords do not match.');
      const hash = await hashPassword(password);
      const userId = await db.transaction(async (tx) => {
        const id = await repo.consume(tx, hashToken(token));
        if (!id) return undefined;
        await usersRepository.setPassword(tx, id, hash);
        // Whoever had the old password may hold a session: every session ends.
        await deps.sessionEnds.revokeAllOfUser(tx, id, 'password_reset');
        return id;
      });
      if (!userId) throw invalidLink();
      await deps.hubSessions.sessionsEnded({ userId });
      await recordSecurityEvent(db, { kind: 'password_reset', userId, ip });
      return { code: 'password_reset' as const };
    },
  };
}
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
