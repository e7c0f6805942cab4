// What SCIM reads and writes, over the rooms that own it: members (features/members), groups and
// who is in them (features/groups), licences (features/team) and administrators (features/admins).
// Each list asks each owner once, never once per row.
import type { Queryable } from '@latchkey/runtime';
import { isTeamAdminEmail } from '../admins/index.ts';
import { groupLookupsRepository, groupsRepository, type ScimGroupRow, scimGroupsRepository } from '../groups/index.ts';
import { membersByIdRepository, type ScimMemberRecord, type ScimMemberWrite, scimMembersRepository } from '../members/index.ts';
import { licenceTotal } from '../team/index.ts';

export type { ScimGroupRow, ScimMemberWrite };

export interface ScimMemberRow extends ScimMemberRecord {
  /** The groups the member is in, by name (RFC 7643 §4.1.2 `groups`). */
  groups: { id: string; name: string }[];
}

/** The members with the groups each is in: one lookup for them all. */
async function withGroups(q: Queryable, members: ScimMemberRecord[]): Promise<ScimMemberRow[]> {
  const groups = new Map<string, { id: string; name: string }[]>(members.map((m) => [m.id, []]));
  for (const g of await groupLookupsRepository.ofMembers(
    q,
    members.map((m) => m.id),
  ))
    groups.get(g.member_id)?.push({ id: g.id, name: g.name });
  return members.map((m) => ({ ...m, groups: groups.get(m.id) ?? [] }));
}

async function oneWithGroups(q: Queryable, member: ScimMemberRecord | undefined): Promise<ScimMemberRow | undefined> {
  return member && (await withGroups(q, [member]))[0];
}

export const scimRepository = {
  async member(q: Queryable, teamId: string, id: string, lock = false): Promise<ScimMemberRow | undefined> {
    if (!isUuid(id)) return undefined;
    return oneWithGroups(q, await scimMembersRepository.find(q, teamId, id, lock));
  },

  async memberByEmail(q: Queryable, teamId: string, email: string): Promise<ScimMemberRow | undefined> {
    return oneWithGroups(q, await scimMembersRepository.findByEmail(q, teamId, email));
  },

  /** Whether a current member other than `exceptId` has this userName, compared without case. */
  userNameTaken: (q: Queryable, teamId: string, userName: string, exceptId?: string): Promise<boolean> =>
    scimMembersRepository.userNameTaken(q, teamId, userName, exceptId),

  /** Current members where `where` holds ($1 is the team), in `orderBy` order, a page of them. */
  async membersPage(q: Queryable, where: string, params: unknown[], orderBy: string, offset: number, limit: number) {
    const { rows, total } = await scimMembersRepository.page(q, where, params, orderBy, offset, limit);
    return { rows: await withGroups(q, rows), total };
  },

  async membersWhere(q: Queryable, where: string, params: unknown[]): Promise<ScimMemberRow[]> {
    return withGroups(q, await scimMembersRepository.where(q, where, params));
  },

  /**
   * A new member (or a former one coming back) as invited and licensed, as the console's invite
   * makes them, with the SCIM attributes, and the team's licence total (-1: unlimited, read
   * without a lock); undefined when a current member has that email.
   */
  async insertMember(
    q: Queryable,
    teamId: string,
    m: ScimMemberWrite,
  ): Promise<(ScimMemberRow & { licence_total: number | null }) | undefined> {
    const row = await oneWithGroups(q, await scimMembersRepository.insert(q, teamId, m));
    return row && { ...row, licence_total: await licenceTotal(q, teamId) };
  },

  updateMember: async (q: Queryable, teamId: string, id: string, m: ScimMemberWrite) =>
    oneWithGroups(q, await scimMembersRepository.update(q, teamId, id, m)),

  /** Suspends an invited or active member, remembering which it was; undefined when it was neither. */
  suspendMember: async (q: Queryable, teamId: string, id: string) =>
    oneWithGroups(q, await scimMembersRepository.suspend(q, teamId, id)),

  /** Restores a suspended member to the status it had; undefined when it was not suspended. */
  restoreMember: async (q: Queryable, teamId: string, id: string) =>
    oneWithGroups(q, await scimMembersRepository.restore(q, teamId, id)),

  isAdmin: (q: Queryable, teamId: string, email: string): Promise<boolean> => isTeamAdminEmail(q, teamId, email),

  async group(q: Queryable, teamId: string, id: string, lock = false): Promise<ScimGroupRow | undefined> {
    if (!isUuid(id)) return undefined;
    return scimGroupsRepository.find(q, teamId, id, lock);
  },

  groupsPage: (q: Queryable, where: string, params: unknown[], orderBy: string, offset: number, limit: number) =>
    scimGroupsRepository.page(q, where, params, orderBy, offset, limit),

  groupsWhere: (q: Queryable, where: string, params: unknown[]) => scimGroupsRepository.where(q, where, params),

  /** Current members of each group, as SCIM member values, by email. */
  async groupMembers(q: Queryable, groupIds: string[]) {
    const pairs = await groupLookupsRepository.memberships(q, groupIds);
    const groupsOf = new Map<string, string[]>();
    for (const p of pairs) {
      const of = groupsOf.get(p.member_id);
      if (of) of.push(p.group_id);
      else groupsOf.set(p.member_id, [p.group_id]);
    }
    const members = await membersByIdRepository.current(q, [...groupsOf.keys()]);
    return members.flatMap((m) => (groupsOf.get(m.id) ?? []).map((group_id) => ({ group_id, id: m.id, email: m.email })));
  },

  /** Which of `ids` are current members of the team. */
  async existingMembers(q: Queryable, teamId: string, ids: string[]): Promise<string[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return scimMembersRepository.currentIds(q, teamId, valid);
  },

  createGroup: (q: Queryable, teamId: string, connectorId: string, name: string, externalId: string | null) =>
    scimGroupsRepository.create(q, teamId, connectorId, name, externalId),

  /** Renames and takes the group over for the connector (a console group an IdP writes to becomes its). */
  updateGroup: (q: Queryable, teamId: string, id: string, connectorId: string, name: string, externalId: string | null) =>
    scimGroupsRepository.update(q, teamId, id, connectorId, name, externalId),

  nameTaken: (q: Queryable, teamId: string, name: string, exceptId?: string) =>
    scimGroupsRepository.nameTaken(q, teamId, name, exceptId),

  deleteGroup: (q: Queryable, teamId: string, id: string) => scimGroupsRepository.remove(q, teamId, id),

  /**
   * Adds the team's current members among `ids` (uuids) to a group: how many of `ids` are such
   * members (fewer than asked: some are not) and how many were not in the group yet.
   */
  async addGroupMembers(q: Queryable, teamId: string, groupId: string, ids: string[]): Promise<{ valid: number; added: number }> {
    const valid = await scimMembersRepository.currentIds(q, teamId, ids);
    const added = valid.length > 0 ? await groupsRepository.addMembers(q, groupId, valid) : 0;
    return { valid: valid.length, added };
  },

  /** Takes a group over for the connector (as {@link updateGroup} does) and moves its version. */
  claimGroup: (q: Queryable, teamId: string, id: string, connectorId: string) =>
    scimGroupsRepository.claim(q, teamId, id, connectorId),
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string): boolean => UUID.test(v);
