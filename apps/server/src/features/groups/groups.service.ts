import { type ActionName, type Group, NO_PRIORITY } from '@latchkey/contracts';
import { AppError, type Db, type Queryable } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { membersRepository, recordMemberEvents } from '../members/index.ts';
import { teamRepository } from '../team/index.ts';
import { type GroupRow, groupsRepository as repo } from './groups.repository.ts';

const toGroup = (r: GroupRow): Group => ({
  id: r.id,
  name: r.name,
  policy_override: r.policy_override,
  priority_level: r.priority_level,
  emails: r.emails,
  member_count: r.member_count,
  scim_managed: r.scim_managed,
  directory_managed: r.directory_managed,
});

const unique = (emails: string[]): string[] => [...new Set(emails)];

/** A group an identity provider manages through SCIM is changed there, never in the console. */
const scimManaged = (name: string) =>
  new AppError('forbidden', `The group "${name}" is managed by your identity provider (SCIM).`, 403).shows(
    'errors.group_scim_managed',
    { name },
  );
/** A group directory sync created is changed in the directory, never in the console (a sync would undo it). */
const directoryManaged = (name: string) =>
  new AppError('forbidden', `The group "${name}" is managed by directory sync.`, 403).shows('errors.group_directory_managed', {
    name,
  });
const assertEditable = (group: Pick<GroupRow, 'name' | 'scim_managed' | 'directory_managed'>) => {
  if (group.scim_managed) throw scimManaged(group.name);
  if (group.directory_managed) throw directoryManaged(group.name);
};

export const groupNotFound = () =>
  new AppError('group_not_found', 'No such group in this team.', 404).shows('errors.group_not_found');
const nameTaken = (name: string) =>
  new AppError('group_already_exists', `A group named "${name}" already exists in this team.`, 409).shows(
    'errors.group_already_exists',
    { name },
  );

/** Two admins saving the same name at once: the unique index refuses the second, with the same error. */
async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw nameTaken(name);
    throw error;
  }
}

/**
 * Called in the transaction of every change to who is in which group (features/family re-applies
 * its benefit; it reads the groups, so the composition root wires it rather than an import here).
 */
export type GroupMembersChanged = (
  tx: Queryable,
  teamId: string,
  actorId: string,
  reason: Record<string, unknown>,
) => Promise<unknown>;

/** Group CRUD, membership and priority (spec §7 Team API). Policies of groups are another slice. */
export function createGroupsService(db: Db, membersChanged: GroupMembersChanged) {
  const mustFind = async (q: Queryable, caller: Caller, id: string, lock = false) => {
    const group = await repo.find(q, caller.team.id, id, lock);
    if (!group) throw groupNotFound();
    return group;
  };

  /** Every email must be a current member of the team; returns their member ids. */
  const memberIds = async (q: Queryable, caller: Caller, emails: string[]) => {
    const wanted = unique(emails);
    const found = await membersRepository.currentIds(q, caller.team.id, wanted);
    const have = new Set(found.map((m) => m.email));
    const absent = wanted.filter((e) => !have.has(e));
    if (absent.length > 0)
      throw new AppError('member_not_found', `Not a member of this team: ${absent.join(', ')}.`).shows('errors.not_members', {
        emails: absent.join(', '),
      });
    return found.map((m) => m.id);
  };

  const record = (q: Queryable, caller: Caller, action: ActionName, group: string, detail: Record<string, unknown> = {}) =>
    recordMemberEvents(q, caller.team.id, caller.userId, action, [caller.email], { group, ...detail });

  return {
    async list(caller: Caller, search: string | undefined, page: number, pageSize: number) {
      const { rows, count } = await repo.page(db, caller.team.id, search || undefined, page, pageSize);
      return { results: rows.map(toGroup), pages: Math.max(1, Math.ceil(count / pageSize)), count };
    },

    async get(caller: Caller, id: string) {
      const group = await mustFind(db, caller, id);
      return { ...toGroup(group), members: await repo.members(db, id) };
    },

    async create(caller: Caller, name: string, emails: string[]) {
      return uniqueName(name, () =>
        db.transaction(async (tx) => {
          // The same name in another case is taken too (the index alone would allow it).
          if (await repo.nameTaken(tx, caller.team.id, name)) throw nameTaken(name);
          const ids = await memberIds(tx, caller, emails);
          const id = await repo.create(tx, caller.team.id, name);
          if (ids.length > 0) await repo.addMembers(tx, id, ids);
          await record(tx, caller, 'group_created', name, { members: ids.length });
          return toGroup(await mustFind(tx, caller, id));
        }),
      );
    },

    async rename(caller: Caller, id: string, name: string) {
      return uniqueName(name, () =>
        db.transaction(async (tx) => {
          const before = await mustFind(tx, caller, id, true);
          assertEditable(before);
          if (await repo.nameTaken(tx, caller.team.id, name, id)) throw nameTaken(name);
          await repo.rename(tx, caller.team.id, id, name);
          await record(tx, caller, 'group_renamed', name, { from: before.name });
          return toGroup(await mustFind(tx, caller, id));
        }),
      );
    },

    async remove(caller: Caller, ids: string[]) {
      const wanted = unique(ids);
      return db.transaction(async (tx) => {
        const existing = await repo.existing(tx, caller.team.id, wanted);
        if (existing.length !== wanted.length) throw groupNotFound();
        const managed = await repo.managedNames(tx, caller.team.id, wanted);
        const scim = managed.filter((g) => g.scim_managed).map((g) => g.name);
        if (scim.length > 0) throw scimManaged(scim.join(', '));
        if (managed.length > 0) throw directoryManaged(managed.map((g) => g.name).join(', '));
        const removed = await repo.remove(tx, caller.team.id, wanted);
        await record(tx, caller, 'groups_removed', removed.join(','), { count: removed.length });
        // Family plan: members covered only by a removed group lose the benefit.
        await membersChanged(tx, caller.team.id, caller.userId, { groups_removed: removed.length });
        return { code: 'updated' as const, removed: removed.length };
      });
    },

    async priority(caller: Caller, id: string, level: number | undefined, reset: boolean) {
      const next = reset || level === undefined ? NO_PRIORITY : level;
      return db.transaction(async (tx) => {
        // Priority changes within a team queue behind each other: two admins reordering never collide.
        await teamRepository.lock(tx, caller.team.id);
        const group = await mustFind(tx, caller, id);
        await repo.setPriority(tx, caller.team.id, id, next);
        await record(tx, caller, 'group_priority_updated', group.name, { priority_level: next });
        return toGroup(await mustFind(tx, caller, id));
      });
    },

    async addMembers(caller: Caller, id: string, emails: string[]) {
      return db.transaction(async (tx) => {
        const group = await mustFind(tx, caller, id, true);
        assertEditable(group);
        const added = await repo.addMembers(tx, id, await memberIds(tx, caller, emails));
        await record(tx, caller, 'group_members_added', group.name, { count: added });
        await membersChanged(tx, caller.team.id, caller.userId, { group: group.name });
        return { code: 'updated' as const, added };
      });
    },

    async removeMembers(caller: Caller, id: string, emails: string[]) {
      return db.transaction(async (tx) => {
        const group = await mustFind(tx, caller, id, true);
        assertEditable(group);
        const removed = await repo.removeMembers(tx, id, await memberIds(tx, caller, emails));
        await record(tx, caller, 'group_members_removed', group.name, { count: removed });
        await membersChanged(tx, caller.team.id, caller.userId, { group: group.name });
        return { code: 'updated' as const, removed };
      });
    },
  };
}
