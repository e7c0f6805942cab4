import { type Db, hashToken, type Queryable } from '@latchkey/runtime';
import type { MailOutbox } from '../../platform/mail.ts';
import { usersRepository } from '../users/index.ts';
import { LOGIN_TOKEN_MINUTES, loginTokensRepository } from './login-tokens.ts';
import type { AdminTeams } from './sign-in-steps.ts';

/** A single-use onboarding link for an admin without a password, and its token (for the mail's key). */
export async function issueOnboardingLink(
  q: Queryable,
  base: string,
  userId: string,
  teamId: string,
): Promise<{ link: string; token: string }> {
  const token = await loginTokensRepository.issue(q, 'onboarding', userId, teamId);
  return { link: `${base}/#/email-verification/${encodeURIComponent(token)}`, token };
}

/**
 * Onboarding invitations: an admin added without a password gets a link to the email-link
 * verification page, which sends a code to that email and then asks for a first password. The
 * link proves nothing by itself: the emailed code is still needed, and the link works once.
 */
export function createOnboardingInvites(deps: {
  db: Db;
  mail: MailOutbox;
  /** The console's configured address (PUBLIC_URL); null when links cannot be sent. */
  consoleUrl: () => string | null;
  adminTeams: AdminTeams;
}) {
  const { db, mail } = deps;
  return {
    async invite(teamId: string, email: string): Promise<boolean> {
      const user = await usersRepository.findUserByEmail(db, email);
      const team = user && (await deps.adminTeams(db, user.id)).find((t) => t.id === teamId);
      const base = deps.consoleUrl();
      if (!user || !team || user.password_hash || !base) return false;
      const days = LOGIN_TOKEN_MINUTES.onboarding / (24 * 60);
      await db.transaction(async (tx) => {
        const { link, token } = await issueOnboardingLink(tx, base, user.id, team.id);
        await mail.send(
          tx,
          {
            to: email,
            subject: `You are now an administrator of ${team.name}`,
            text: `You were made an administrator of ${team.name} in the Latchkey admin console.\n\nSet up your sign-in: ${link}\n\nThe link works once, for ${days} days. We will email you a code to confirm it is you.`,
          },
          `onboarding:${hashToken(token)}`,
        );
      });
      return true;
    },
  };
}
export type OnboardingInvites = ReturnType<typeof createOnboardingInvites>;
