import { roundUpToTen, type Scope } from '@latchkey/contracts';
import { AppError, type Db } from '@latchkey/runtime';
import type { Caller } from '../../http/guard.ts';
import type { HubSessionEnder } from '../integration/hub-session-ender.ts';
import { type AdminRow, adminsRepository as repo } from './admins.repository.ts';

const isSuper = (a: Pick<AdminRow, 'scopes'>) => a.scopes.includes('super_admin');

/** A removal that would leave the team without a super admin is refused (issue 4). */
export function assertKeepsSuperAdmin(admins: Pick<AdminRow, 'email' | 'scopes'>[], removing: string): void {
  const remaining = admins.filter((a) => a.email !== removing && isSuper(a));
  if (remaining.length === 0) {
    throw new AppError(
      'last_super_admin',
      'The team needs at least one super admin: add another before removing this one.',
    ).shows('errors.last_super_admin');
  }
}

export function createAdminsService(db: Db, hubSessions: HubSessionEnder) {
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
      return {
        admins: admins.map((a) => ({ email: a.email, name: a.name, scopes: a.scopes })),
        total,
        total_rounded: roundUpToTen(total),
      };
    },

    async add(caller: Caller, email: string, scopes: Scope[]) {
      await db
        .transaction(async (tx) => {
          const admins = await repo.lockAll(tx, caller.team.id);
          if (admins.some((a) => a.email === email && a.scopes.length > 0)) {
            throw new AppError('admin_already_exists', `${email} is already an administrator of this team.`).shows(
              'errors.admin_already_exists',
              { email },
            );
          }
          const userId = await repo.ensureUser(tx, email);
          await repo.upsert(tx, caller.team.id, userId, scopes);
          await repo.recordEvent(tx, caller.team.id, caller.userId, 'admin_added', email, { scopes });
          return userId;
        })
        .then((userId) =>
          // New scopes for someone who was an admin here: Hub sessions with the old ones end.
          hubSessions.sessionsEnded({ teamId: caller.team.id, userId }),
        );
      return { code: 'updated' as const };
    },

    async remove(caller: Caller, email: string) {
      await db
        .transaction(async (tx) => {
          const admins = await repo.lockAll(tx, caller.team.id);
          const admin = findIn(admins, email);
          assertKeepsSuperAdmin(admins, email);
          await repo.remove(tx, caller.team.id, admin.user_id);
          await repo.recordEvent(tx, caller.team.id, caller.userId, 'admin_removed', email, { scopes: admin.scopes });
          return admin.user_id;
        })
        .then((userId) => hubSessions.sessionsEnded({ teamId: caller.team.id, userId }));
      return { code: 'updated' as const };
    },

    async resetAuth(caller: Caller, email: string) {
      if (email === caller.email) {
        throw new AppError('invalid_input', 'Change your own sign-in in account security, not by a reset.');
      }
      await db
        .transaction(async (tx) => {
          const admin = findIn(await repo.lockAll(tx, caller.team.id), email);
          await repo.resetAuth(tx, admin.user_id);
          await repo.recordEvent(tx, caller.team.id, caller.userId, 'admin_auth_reset', email, {});
          return admin.user_id;
        })
        .then((userId) => hubSessions.sessionsEnded({ userId }));
      return { code: 'updated' as const };
    },
  };
}
