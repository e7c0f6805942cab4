import type { Db } from '@latchkey/runtime';
import type { Mailer } from '../../platform/mail.ts';
import { teamRepository } from '../team/index.ts';
import { usersRepository } from '../users/index.ts';
import { LOGIN_TOKEN_MINUTES, loginTokensRepository } from './login-tokens.ts';

/**
 * Onboarding invitations: an admin added without a password gets a link to the email-link
 * verification page, which sends a code to that email and then asks for a first password. The
 * link proves nothing by itself: the emailed code is still needed, and the link works once.
 */
export function createOnboardingInvites(deps: {
  db: Db;
  mailer: Mailer;
  consoleUrl: (requestOrigin: string | undefined) => string | null;
}) {
  const { db, mailer } = deps;
  return {
    async invite(teamId: string, email: string, requestOrigin: string | undefined): Promise<boolean> {
      const user = await usersRepository.findUserByEmail(db, email);
      const team = user && (await teamRepository.adminTeams(db, user.id)).find((t) => t.id === teamId);
      const base = deps.consoleUrl(requestOrigin);
      if (!user || !team || user.password_hash || !base) return false;
      const token = await loginTokensRepository.issue(db, 'onboarding', user.id, team.id);
      const days = LOGIN_TOKEN_MINUTES.onboarding / (24 * 60);
      await mailer.send({
        to: email,
        subject: `You are now an administrator of ${team.name}`,
        text: `You were made an administrator of ${team.name} in the Latchkey admin console.\n\nSet up your sign-in: ${base}/#/email-verification/${encodeURIComponent(token)}\n\nThe link works once, for ${days} days. We will email you a code to confirm it is you.`,
      });
      return true;
    },
  };
}
export type OnboardingInvites = ReturnType<typeof createOnboardingInvites>;
