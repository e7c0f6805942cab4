import { roundUpToTen, type Scope } from '@latchkey/contracts';
import { AppError, type Db, hashToken, type Queryable, randomToken } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import type { MailOutbox } from '../../platform/mail.ts';
import type { HubSessionEnder } from '../integration/index.ts';
import { usersRepository } from '../users/index.ts';
import { recordAdminEvent } from './admin-events.ts';
import { type AdminRow, adminsRepository as repo } from './admins.repository.ts';
import { invitationsRepository as invitations } from './invitations.repository.ts';

/** How long an administrator invitation's link works. */
const INVITATION_DAYS = 7;

/** The invitation mail: its token exists only there, so without it the person cannot accept. */
function invitationMail(base: string, caller: Caller, email: string, scopes: Scope[], token: string) {
  const team = caller.team.name;
  return {
    to: email,
    subject: `You are invited to administer ${team}`,
    text: `${caller.email} invited you to administer ${team} in the Latchkey admin console (${scopes.join(', ')}).\n\nAccept the invitation: ${base}/#/admin-invitation/${encodeURIComponent(token)}\n\nThe link works once, for ${INVITATION_DAYS} days. Until you accept, nothing changes for you. If you did not expect this, ignore this email.`,
  };
}

const isSuper = (a: Pick<AdminRow, 'scopes'>) => a.scopes.includes('super_admin');

/** A removal that would leave the team without a super admin is refused. */
export function assertKeepsSuperAdmin(admins: Pick<AdminRow, 'email' | 'scopes'>[], removing: string): void {
  const remaining = admins.filter((a) => a.email !== removing && isSuper(a));
  if (remaining.length === 0) {
    throw new AppError(
      'last_super_admin',
      'The team needs at least one super admin: add another before removing this one.',
    ).shows('errors.last_super_admin');
  }
}

/** Whether removing `email` would leave the team a single super admin (approval-required whenever the policy is on). */
export async function removesSecondToLastSuperAdmin(q: Queryable, teamId: string, email: string): Promise<boolean> {
  const supers = (await repo.list(q, teamId)).filter(isSuper);
  return supers.length === 2 && supers.some((a) => a.email === email);
}

export interface AdminsServiceDeps {
  hubSessions: HubSessionEnder;
  mail: MailOutbox;
  /** The console's configured address; null when no link can be mailed. */
  consoleUrl: () => string | null;
}

export function createAdminsService(db: Db, { hubSessions, mail, consoleUrl }: AdminsServiceDeps) {
  const findIn = (admins: AdminRow[], email: string) => {
    const admin = admins.find((a) => a.email === email && a.scopes.length > 0);
    if (!admin)
      throw new AppError('admin_not_in_team', `${email} is not an administrator of this team.`).shows(
        'errors.admin_not_in_team',
        { email },
      );
    return admin;
  };

  return {
    async list(caller: Caller, search?: string) {
      const admins = await repo.list(db, caller.team.id, search?.trim() || undefined);
      const total = search ? (await repo.list(db, caller.team.id)).length : admins.length;
      const term = search?.trim().toLowerCase();
      const pending = (await invitations.pending(db, caller.team.id)).filter(
        (p) => !term || `${p.email} ${p.name}`.toLowerCase().includes(term),
      );
      return {
        admins: [
          ...admins.map((a) => ({ email: a.email, name: a.name, scopes: a.scopes, status: 'active' as const })),
          ...pending.map((p) => ({ email: p.email, name: p.name, scopes: p.scopes, status: 'pending' as const })),
        ],
        total,
        total_rounded: roundUpToTen(total),
      };
    },

    /**
     * A new person is added at once (they prove their email at first sign-in). A person who already
     * has an account may administer other teams: they are only invited, and administer this team
     * once they accept the link mailed to them, so no team can take over another team's admin.
     * The invitation and its mail are queued in one transaction; without PUBLIC_URL in production
     * no link can be built, so no invitation is made.
     */
    async add(caller: Caller, email: string, scopes: Scope[]): Promise<{ code: 'updated' | 'invited' }> {
      return db.transaction(async (tx) => {
        const admins = await repo.lockAll(tx, caller.team.id);
        if (admins.some((a) => a.email === email && a.scopes.length > 0)) {
          // Spec §8: admin_already_exists reads admin_already_registered.
          throw new AppError('admin_already_exists', `${email} is already an administrator of this team.`).shows(
            'admin_already_registered',
          );
        }
        const existing = await repo.findUserId(tx, email);
        if (!existing) {
          const userId = await repo.ensureUser(tx, email);
          await repo.upsert(tx, caller.team.id, userId, scopes);
          await recordAdminEvent(tx, caller.team.id, caller.userId, 'admin_added', email, { scopes });
          return { code: 'updated' as const };
        }
        const base = consoleUrl();
        if (!base)
          throw new AppError('invalid_input', 'Invitations need PUBLIC_URL to be set: no link can be mailed.').shows(
            'errors.invitation_needs_public_url',
          );
        const token = randomToken(32);
        await invitations.create(tx, {
          teamId: caller.team.id,
          userId: existing,
          scopes,
          tokenHash: hashToken(token),
          invitedBy: caller.userId,
          days: INVITATION_DAYS,
        });
        await recordAdminEvent(tx, caller.team.id, caller.userId, 'admin_invited', email, { scopes });
        await mail.send(tx, invitationMail(base, caller, email, scopes, token), `admin-invitation:${hashToken(token)}`);
        return { code: 'invited' as const };
      });
    },

    async remove(caller: Caller, email: string) {
      const removed = await db.transaction(async (tx) => {
        const admins = await repo.lockAll(tx, caller.team.id);
        // Removing someone still invited cancels the invitation.
        const invited = !admins.some((a) => a.email === email && a.scopes.length > 0) && (await repo.findUserId(tx, email));
        if (invited && (await invitations.cancel(tx, caller.team.id, invited))) {
          await recordAdminEvent(tx, caller.team.id, caller.userId, 'admin_invitation_cancelled', email, {});
          return null;
        }
        const admin = findIn(admins, email);
        assertKeepsSuperAdmin(admins, email);
        await repo.remove(tx, caller.team.id, admin.user_id);
        await recordAdminEvent(tx, caller.team.id, caller.userId, 'admin_removed', email, { scopes: admin.scopes });
        return admin.user_id;
      });
      // Their Hub sessions for this team end with their console sessions, and with no scope left the
      // Hub's recovery group loses them too (the server's role is the one source of truth).
      if (removed) await hubSessions.sessionsEnded({ teamId: caller.team.id, userId: removed, admin: { email, scopes: [] } });
      return { code: 'updated' as const };
    },

    async resetAuth(caller: Caller, email: string) {
      if (email === caller.email) {
        throw new AppError('invalid_input', 'Change your own sign-in in account security, not by a reset.');
      }
      await resetAdminAuth(db, hubSessions, caller.team.id, email, caller.userId);
      return { code: 'updated' as const };
    },
  };
}

/**
 * Clears an admin's password and second factors and ends their sessions (the console's reset and
 * the operator's `latchkey reset-admin`): their Hub sessions of the team are told to end too.
 * `actorId` is who asked (null: the operator at the server's command line).
 */
export async function resetAdminAuth(
  db: Db,
  hubSessions: HubSessionEnder,
  teamId: string,
  email: string,
  actorId: string | null,
): Promise<void> {
  const userId = await db.transaction(async (tx) => {
    const admin = (await repo.lockAll(tx, teamId)).find((a) => a.email === email && a.scopes.length > 0);
    if (!admin)
      throw new AppError('admin_not_in_team', `${email} is not an administrator of this team.`).shows(
        'errors.admin_not_in_team',
        { email },
      );
    // Their password and second factors guard every team they administer: not this team's to clear.
    if (await repo.administersOtherTeam(tx, teamId, admin.user_id)) {
      throw new AppError(
        'admin_in_other_team',
        `${email} also administers another team: they reset their own sign-in (forgot password), not this team.`,
      ).shows('errors.admin_in_other_team', { email });
    }
    await repo.resetAuth(tx, teamId, admin.user_id);
    await recordAdminEvent(tx, teamId, actorId, 'admin_auth_reset', email, {});
    return admin.user_id;
  });
  await hubSessions.sessionsEnded({ teamId, userId });
}

/** A team's name and slug, as an invitation shows it: the team room's, handed in (it builds on this room). */
export type TeamNames = (q: Queryable, teamId: string) => Promise<{ slug: string; name: string } | undefined>;

/** Accepting an invitation: the token mailed to the person is the proof that it is them. */
export function createInvitationAcceptance(db: Db, teamNames: TeamNames) {
  const invalid = () => new AppError('invalid_link', 'This invitation is invalid, used or expired.');
  /** The invitation with its person's email and its team's names; undefined when either is gone. */
  const described = async (q: Queryable, row: { team_id: string; user_id: string; scopes: Scope[] } | undefined) => {
    const user = row && (await usersRepository.findUserById(q, row.user_id));
    const team = user && (await teamNames(q, row.team_id));
    return row && user && team ? { ...row, email: user.email, team_slug: team.slug, team_name: team.name } : undefined;
  };
  return {
    async describe(token: string) {
      const found = await described(db, await invitations.peek(db, hashToken(token)));
      if (!found) throw invalid();
      return { email: found.email, team_slug: found.team_slug, team_name: found.team_name, scopes: found.scopes };
    },
    async accept(token: string) {
      const found = await db.transaction(async (tx) => {
        const row = await described(tx, await invitations.accept(tx, hashToken(token)));
        if (!row) return undefined;
        await repo.upsert(tx, row.team_id, row.user_id, row.scopes);
        await recordAdminEvent(tx, row.team_id, row.user_id, 'admin_invitation_accepted', row.email, { scopes: row.scopes });
        return row;
      });
      if (!found) throw invalid();
      return { code: 'accepted' as const, email: found.email, team_slug: found.team_slug, team_name: found.team_name };
    },
  };
}
