// Whether someone is one of a team's administrators, asked by email (SCIM never suspends, removes or
// re-addresses an administrator): the team's administrators from team_admins, their emails from users.
import type { Queryable } from '@latchkey/runtime';
import { anyUserHasEmail, usersRepository } from '../users/index.ts';

/** Whether a team administrator has this email, compared without case. */
export async function isTeamAdminEmail(q: Queryable, teamId: string, email: string): Promise<boolean> {
  const admins = await q.query<{ user_id: string }>('select user_id from team_admins where team_id = $1', [teamId]);
  return anyUserHasEmail(
    q,
    admins.map((a) => a.user_id),
    email,
  );
}

/** The team's administrators' emails, lower-cased (directory sync never changes an administrator). */
export async function teamAdminEmails(q: Queryable, teamId: string): Promise<Set<string>> {
  const admins = await q.query<{ user_id: string }>('select user_id from team_admins where team_id = $1', [teamId]);
  const users = await usersRepository.findUsersByIds(
    q,
    admins.map((a) => a.user_id),
  );
  return new Set(users.map((u) => u.email.toLowerCase()));
}
