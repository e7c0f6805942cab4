import type { ActionName, DirectoryChange } from '@latchkey/contracts';
import type { AppError, Queryable } from '@latchkey/runtime';
import { directoryGroupsRepository as groups } from '../groups/index.ts';
import { directoryMembersRepository as members } from '../members/index.ts';

type GroupChange = Extract<DirectoryChange, { op: 'group_create' | 'group_rename' | 'group_fill' }>;
type Group = { id: string; name: string; directory_id: string | null };
type Pair = { group_id: string; member_id: string };
export type RecordEvent = (action: ActionName, targets: string[], detail?: Record<string, unknown>) => void;

/**
 * A batch's group changes (which come after its member changes), applied with a handful of
 * statements whatever their number: the team's groups are read and locked once and kept in step
 * here, new groups are inserted together before the first fill, and every fill's additions and
 * removals are written together at the end (`finish`).
 */
export function createGroupApplier(
  tx: Queryable,
  teamId: string,
  changes: readonly DirectoryChange[],
  event: RecordEvent,
  refused: (index: number, why: string) => AppError,
) {
  let index: { byDirectoryId: Map<string, Group>; byName: Map<string, Group> } | undefined;
  const key = (name: string) => name.toLowerCase();
  const loaded = async () => {
    if (index) return index;
    const all = await groups.lockAll(tx, teamId);
    index = {
      byDirectoryId: new Map(all.filter((g) => g.directory_id).map((g) => [g.directory_id as string, g])),
      byName: new Map(all.map((g) => [key(g.name), g])),
    };
    return index;
  };
  // The index follows each write: the group under its new name and directory id.
  const remember = (groups: NonNullable<typeof index>, group: Group, name: string, directoryId: string) => {
    groups.byName.delete(key(group.name));
    Object.assign(group, { name, directory_id: directoryId });
    groups.byName.set(key(name), group);
    groups.byDirectoryId.set(directoryId, group);
  };

  // New groups wait for one insert, made before anything needs their ids.
  const creating: Group[] = [];
  const insertCreated = async () => {
    if (creating.length === 0) return;
    const ids = await groups.createMany(
      tx,
      teamId,
      creating.map((g) => ({ name: g.name, directory_id: g.directory_id as string })),
    );
    for (const g of creating.splice(0)) g.id = ids.get(g.directory_id as string) as string;
  };

  // What the fills need, read once at the first: the members the directory owns and who is in which group.
  let fills: { owned: Map<string, string>; current: Map<string, Set<string>> } | undefined;
  const add: Pair[] = [];
  const drop: Pair[] = [];
  const fillState = async () => {
    if (fills) return fills;
    await insertCreated();
    const groupIds = [...(await loaded()).byDirectoryId.values()].map((g) => g.id);
    const wanted = changes.flatMap((c) => (c.op === 'group_fill' ? c.member_directory_ids : []));
    const owned = await members.byDirectoryIds(tx, teamId, [...new Set(wanted)]);
    const current = new Map<string, Set<string>>();
    for (const pair of await groups.memberships(tx, groupIds)) {
      const set = current.get(pair.group_id) ?? new Set();
      current.set(pair.group_id, set.add(pair.member_id));
    }
    const ownedIds = new Map([...owned].map(([directoryId, m]) => [directoryId, m.id]));
    fills = { owned: ownedIds, current };
    return fills;
  };
  // Members the directory owns: only they are taken out of a group (members the console added stay).
  let directoryOwned: Set<string> | undefined;

  return {
    /** Applies one group change; true when it changed something. */
    async apply(at: number, change: GroupChange): Promise<boolean> {
      const team = await loaded();
      switch (change.op) {
        case 'group_create': {
          if (team.byDirectoryId.has(change.directory_id)) return false;
          const same = team.byName.get(key(change.name));
          if (same?.directory_id) throw refused(at, `a group named "${change.name}" belongs to another directory entry.`);
          if (same) {
            await groups.claim(tx, teamId, same.id, change.name, change.directory_id);
            remember(team, same, change.name, change.directory_id);
          } else {
            const group: Group = { id: '', name: change.name, directory_id: change.directory_id };
            creating.push(group);
            remember(team, group, change.name, change.directory_id);
          }
          event('group_created', [change.name], { group: change.name });
          return true;
        }
        case 'group_rename': {
          const group = team.byDirectoryId.get(change.directory_id);
          if (!group || group.id !== change.group_id) throw refused(at, 'the group is no longer linked to that directory entry.');
          if (group.name === change.name) return false;
          const same = team.byName.get(key(change.name));
          if (same && same !== group) throw refused(at, `a group named "${change.name}" exists already.`);
          const from = group.name;
          if (!(await groups.claim(tx, teamId, group.id, change.name, change.directory_id))) return false;
          remember(team, group, change.name, change.directory_id);
          event('group_renamed', [change.name], { group: change.name, from });
          return true;
        }
        case 'group_fill': {
          await insertCreated();
          const { owned, current } = await fillState();
          const group = team.byDirectoryId.get(change.group_directory_id);
          if (!group) throw refused(at, 'the group is not in the team.');
          directoryOwned ??= new Set(await members.directoryOwnedIds(tx, teamId));
          const isOwned = directoryOwned;
          const wanted = new Set(change.member_directory_ids.flatMap((d) => owned.get(d) ?? []));
          const now = current.get(group.id) ?? new Set<string>();
          const out = [...now].filter((id) => isOwned.has(id) && !wanted.has(id));
          const into = [...wanted].filter((id) => !now.has(id));
          for (const member_id of out) drop.push({ group_id: group.id, member_id });
          for (const member_id of into) add.push({ group_id: group.id, member_id });
          const taken = new Set(out);
          current.set(group.id, new Set([...[...now].filter((id) => !taken.has(id)), ...into]));
          if (into.length > 0) event('group_members_added', [group.name], { group: group.name, count: into.length });
          if (out.length > 0) event('group_members_removed', [group.name], { group: group.name, count: out.length });
          return into.length + out.length > 0;
        }
      }
    },

    /** Writes what waits: the new groups and every fill's changes. */
    async finish() {
      await insertCreated();
      await groups.changeMemberships(tx, add, drop);
    },
  };
}
