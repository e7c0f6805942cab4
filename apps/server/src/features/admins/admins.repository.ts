import type { Scope } from '@latchkey/contracts';
import { containsPattern, type Queryable } from '@latchkey/runtime';
import { accountRepository } from '../account/index.ts';
import { loginTokensRepository, sessionsRepository } from '../auth/index.ts';
import { usersRepository } from '../users/index.ts';

export interface AdminRow {
  user_id: string;
  email: string;
  name: string;
  scopes: Scope[];
}

interface Membership {
  user_id: string;
  scopes: Scope[];
}

/** The memberships' people, in the order the users lookup gives (by email); a person it leaves out is left out. */
async function withPeople(q: Queryable, memberships: Membership[], pattern?: string): Promise<AdminRow[]> {
  const scopes = new Map(memberships.map((m) => [m.user_id, m.scopes]));
  const people = await usersRepository.findUsersByIds(q, [...scopes.keys()], pattern);
  return people.map((u) => ({ user_id: u.id, email: u.email, name: u.name, scopes: scopes.get(u.id) ?? [] }));
}

export const adminsRepository = {
  async list(q: Queryable, teamId: string, search?: string): Promise<AdminRow[]> {
    const memberships = await adminsRepository.memberships(q, teamId);
    return withPeople(q, memberships, search ? containsPattern(search) : undefined);
  },

  /** The team's administrators, locked until the transaction ends (two removals cannot both pass the last-super-admin check). */
  async lockAll(q: Queryable, teamId: string): Promise<AdminRow[]> {
    const memberships = await q.query<Membership>('select user_id, scopes from team_admins where team_id = $1 for update', [
      teamId,
    ]);
    return withPeople(q, memberships);
  },

  async findEmail(q: Queryable, userId: string): Promise<string | undefined> {
    return (await usersRepository.findUserById(q, userId))?.email;
  },

  async findUserId(q: Queryable, email: string): Promise<string | undefined> {
    return (await usersRepository.findUserByEmail(q, email))?.id;
  },

  /** Whether the person administers any team but this one (their account is then not this team's to reset). */
  async administersOtherTeam(q: Queryable, teamId: string, userId: string): Promise<boolean> {
    const rows = await q.query(
      'select 1 from team_admins where user_id = $1 and team_id <> $2 and cardinality(scopes) > 0 limit 1',
      [userId, teamId],
    );
    return rows.length > 0;
  },

  async ensureUser(q: Queryable, email: string): Promise<string> {
    return usersRepository.ensureUser(q, email);
  },

  async upsert(q: Queryable, teamId: string, userId: string, scopes: Scope[]): Promise<void> {
    await q.query(
      `insert into team_admins (team_id, user_id, scopes) values ($1, $2, $3)
       on conflict (team_id, user_id) do update set scopes = excluded.scopes`,
      [teamId, userId, scopes],
    );
  },

  async remove(q: Queryable, teamId: string, userId: string): Promise<void> {
    await q.query('delete from team_admins where team_id = $1 and user_id = $2', [teamId, userId]);
    // Their just-in-time rights go with them: a later return starts from none.
    await q.query(
      `update admin_elevations set status = 'ended', ended_at = now(), ended_reason = 'admin_removed'
       where team_id = $1 and user_id = $2 and status in ('pending', 'active')`,
      [teamId, userId],
    );
    await sessionsRepository.revokeUserInTeam(q, teamId, userId, 'admin_removed');
  },

  /**
   * Clears password, authenticator, backup codes and security keys, and ends the person's sessions
   * in this team. Only for someone who administers no other team (the service checks), so
   * everything cleared belongs to this team.
   */
  async resetAuth(q: Queryable, teamId: string, userId: string): Promise<void> {
    await usersRepository.clearSignIn(q, userId);
    await accountRepository.clearSecondFactors(q, userId);
    // Without a password, an old invitation link would work again: end every open sign-in link.
    await loginTokensRepository.revokeAll(q, userId);
    await sessionsRepository.revokeUserInTeam(q, teamId, userId, 'auth_reset');
  },

  /** The teams the person administers (with at least one scope), and their scopes in each. */
  async teamsOf(q: Queryable, userId: string): Promise<{ team_id: string; scopes: Scope[] }[]> {
    return q.query('select team_id, scopes from team_admins where user_id = $1 and cardinality(scopes) > 0', [userId]);
  },

  /** The person's scopes in the team; undefined when they are not in its administrators' table. */
  async scopesIn(q: Queryable, teamId: string, userId: string): Promise<Scope[] | undefined> {
    const [row] = await q.query<{ scopes: Scope[] }>('select scopes from team_admins where team_id = $1 and user_id = $2', [
      teamId,
      userId,
    ]);
    return row?.scopes;
  },

  /** The team's administrators with at least one scope, unordered (the caller's users lookup orders them). */
  async memberships(q: Queryable, teamId: string): Promise<Membership[]> {
    return q.query('select user_id, scopes from team_admins where team_id = $1 and cardinality(scopes) > 0', [teamId]);
  },

  /** The scopes the first of these users with a place in the team holds there; null when none has one. */
  async scopesOf(q: Queryable, teamId: string, userIds: string[]): Promise<Scope[] | null> {
    if (userIds.length === 0) return null;
    const [row] = await q.query<{ scopes: Scope[] | null }>(
      'select scopes from team_admins where team_id = $1 and user_id = any($2::uuid[])',
      [teamId, userIds],
    );
    return row ? row.scopes : null;
  },
};
