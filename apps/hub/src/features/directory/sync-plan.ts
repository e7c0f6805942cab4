import { createHash } from 'node:crypto';
import {
  DIRECTORY_CHANGE_KINDS,
  DIRECTORY_NOTE_KINDS,
  type DirectoryChange,
  type DirectoryStateMember,
  type EndpointOutput,
  type hubDirectoryStateEndpoint,
} from '@latchkey/contracts';
import type { DirectorySnapshot } from './directory-reader.ts';

type TeamState = EndpointOutput<typeof hubDirectoryStateEndpoint>;

/** What a plan holds, by kind: the counts the console shows beside the first rows of each. */
const PLAN_KINDS = [...DIRECTORY_CHANGE_KINDS, ...DIRECTORY_NOTE_KINDS] as const;
type PlanKind = (typeof PLAN_KINDS)[number];
const SAMPLE_ROWS = 5;

export interface SyncPlan {
  changes: DirectoryChange[];
  counts: Record<PlanKind, number>;
  /** The first rows of each kind, in words: an e-mail, a group's name. */
  sample: Partial<Record<PlanKind, string[]>>;
  /** The changes' fingerprint: a preview is applied only while the directory still gives it. */
  hash: string;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What a sync changes, from what the directory holds and what the team holds. Members are matched by
 * the directory's stable id, else by e-mail (a console member the directory then owns);
 * administrators and members a SCIM connector owns are never planned for. Disabled accounts are
 * suspended, never invited; members the directory owns that it no longer lists are suspended, or
 * removed when the admin chose so. Invitations past the free licences are reported, not planned.
 * Groups are created (or a console group of that name taken over), renamed, and filled with their
 * members, nested groups flattened (`members` by group id).
 */
export function planSync(
  directory: DirectorySnapshot,
  members: ReadonlyMap<string, ReadonlySet<string>>,
  team: TeamState,
  options: { removeMissing: boolean },
): SyncPlan {
  const counts = Object.fromEntries(PLAN_KINDS.map((k) => [k, 0])) as Record<PlanKind, number>;
  const sample: Partial<Record<PlanKind, string[]>> = {};
  const note = (kind: PlanKind, label: string) => {
    counts[kind]++;
    const rows = sample[kind] ?? [];
    if (rows.length < SAMPLE_ROWS) sample[kind] = [...rows, label];
  };
  const byDirectoryId = new Map(team.members.filter((m) => m.directory_id).map((m) => [m.directory_id as string, m]));
  const byEmail = new Map(team.members.map((m) => [m.email.toLowerCase(), m]));
  const admins = new Set(team.admins.map((email) => email.toLowerCase()));
  const updates: DirectoryChange[] = [];
  const invites: DirectoryChange[] = [];
  const statuses: DirectoryChange[] = [];
  /** Directory ids that are (or will be) members the directory owns. */
  const owned = new Set<string>();
  let free = team.licences_free ?? Number.POSITIVE_INFINITY;

  const users = [...directory.users].sort((a, b) => byText(a.email ?? a.id, b.email ?? b.id));
  for (const user of users) {
    if (!user.email) {
      note('no_email', user.name);
      continue;
    }
    const existing: DirectoryStateMember | undefined = byDirectoryId.get(user.id) ?? byEmail.get(user.email);
    if (existing?.admin || admins.has(user.email)) {
      note('admin_skipped', user.email);
      continue;
    }
    if (existing?.source === 'scim') {
      note('scim_skipped', existing.email);
      continue;
    }
    if (!existing) {
      if (user.disabled) continue;
      if (free <= 0) {
        note('not_fitting', user.email);
        continue;
      }
      free--;
      invites.push({ op: 'member_invite', directory_id: user.id, email: user.email, name: user.name });
      note('invite', user.email);
      owned.add(user.id);
      continue;
    }
    owned.add(user.id);
    if (
      existing.email !== user.email ||
      existing.name !== user.name ||
      existing.directory_id !== user.id ||
      existing.source !== 'directory'
    ) {
      updates.push({ op: 'member_update', member_id: existing.id, directory_id: user.id, email: user.email, name: user.name });
      note('update', user.email);
    }
    if (user.disabled && existing.status !== 'suspended') {
      statuses.push({ op: 'member_suspend', member_id: existing.id });
      note('suspend', user.email);
    } else if (!user.disabled && existing.status === 'suspended' && existing.source === 'directory') {
      statuses.push({ op: 'member_restore', member_id: existing.id });
      note('restore', user.email);
    }
  }

  const listed = new Set(directory.users.map((u) => u.id));
  for (const member of team.members) {
    if (member.source !== 'directory' || member.admin || !member.directory_id || listed.has(member.directory_id)) continue;
    if (options.removeMissing) {
      statuses.push({ op: 'member_remove', member_id: member.id });
      note('remove', member.email);
    } else if (member.status !== 'suspended') {
      statuses.push({ op: 'member_suspend', member_id: member.id });
      note('suspend', member.email);
    }
  }

  const groupChanges: DirectoryChange[] = [];
  const fills: DirectoryChange[] = [];
  const teamGroups = new Map(team.groups.filter((g) => g.directory_id).map((g) => [g.directory_id as string, g]));
  const memberDirectoryId = new Map(
    team.members.filter((m) => m.source === 'directory' && m.directory_id).map((m) => [m.id, m.directory_id as string]),
  );
  for (const group of [...directory.groups].sort((a, b) => byText(a.name, b.name))) {
    const existing = teamGroups.get(group.id);
    if (!existing) {
      groupChanges.push({ op: 'group_create', directory_id: group.id, name: group.name });
      note('group_create', group.name);
    } else if (existing.name !== group.name) {
      groupChanges.push({ op: 'group_rename', group_id: existing.id, directory_id: group.id, name: group.name });
      note('group_rename', group.name);
    }
    const wanted = [...(members.get(group.id) ?? [])].filter((id) => owned.has(id)).sort(byText);
    const now = (existing?.member_ids ?? []).flatMap((id) => memberDirectoryId.get(id) ?? []).sort(byText);
    if (wanted.join('\n') !== now.join('\n')) {
      fills.push({ op: 'group_fill', group_directory_id: group.id, member_directory_ids: wanted });
      note('group_fill', group.name);
    }
  }

  const changes = [...updates, ...invites, ...statuses, ...groupChanges, ...fills];
  const hash = createHash('sha256').update(JSON.stringify(changes)).digest('base64url');
  return { changes, counts, sample, hash };
}
