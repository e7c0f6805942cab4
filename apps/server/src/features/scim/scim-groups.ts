import type { Queryable } from '@latchkey/runtime';
import { groupsRepository } from '../groups/index.ts';
import { isUuid, scimRepository as repo, type ScimGroupRow } from './scim.repository.ts';
import { GROUP_COLUMNS } from './scim-columns.ts';
import type { ConnectorRow } from './scim-connectors.repository.ts';
import { getProp, matches } from './scim-filter.ts';
import { filterToSql, sortToSql } from './scim-filter-sql.ts';
import { attrList, filterOf, type ListQuery, listResponse, paging, project, sortResources } from './scim-list-query.ts';
import { memberDelta } from './scim-member-patch.ts';
import { applyPatch, ScimError } from './scim-patch.ts';
import { CORE_GROUP } from './scim-schema.ts';
import { checkIfMatch, checkSchemas, etag, isObj, type Obj, type ScimContext, scimEvent, str } from './scim-shared.ts';

/** SCIM Groups over the team's groups: list, read, create, replace, patch (members alone or whole), delete. */
export function createScimGroups({ db, baseUrl }: ScimContext) {
  const groupResource = (g: ScimGroupRow, members: { id: string; email: string }[] | null): Obj => ({
    schemas: [CORE_GROUP],
    id: g.id,
    ...(g.scim_external_id ? { externalId: g.scim_external_id } : {}),
    displayName: g.name,
    ...(members
      ? { members: members.map((m) => ({ value: m.id, display: m.email, $ref: `${baseUrl()}/Users/${m.id}`, type: 'User' })) }
      : {}),
    meta: {
      resourceType: 'Group',
      created: new Date(g.created_at).toISOString(),
      lastModified: new Date(g.updated_at).toISOString(),
      location: `${baseUrl()}/Groups/${g.id}`,
      version: etag(g.scim_version),
    },
  });

  const mustGroup = async (q: Queryable, c: ConnectorRow, id: string, lock = false) => {
    const row = await repo.group(q, c.team_id, id, lock);
    if (!row) throw new ScimError(404, `No group ${id}.`);
    return row;
  };
  const membersOf = async (q: Queryable, groupId: string) =>
    (await repo.groupMembers(q, [groupId])).map((m) => ({ id: m.id, email: m.email }));

  const memberIdsOf = async (tx: Queryable, c: ConnectorRow, members: unknown): Promise<string[] | null> => {
    if (members === undefined || members === null) return null;
    if (!Array.isArray(members)) throw new ScimError(400, '"members" must be an array.', 'invalidValue');
    const ids = [
      ...new Set(
        members.map((m) => {
          const v = isObj(m) ? getProp(m, 'value') : undefined;
          if (typeof v !== 'string') throw new ScimError(400, 'Each member needs a "value" (a user id).', 'invalidValue');
          return v.toLowerCase();
        }),
      ),
    ];
    const found = new Set(await repo.existingMembers(tx, c.team_id, ids));
    const absent = ids.filter((id) => !found.has(id));
    if (absent.length > 0) throw new ScimError(400, `Not users of this team: ${absent.slice(0, 10).join(', ')}.`, 'invalidValue');
    return ids;
  };

  const writeGroup = async (tx: Queryable, c: ConnectorRow, group: ScimGroupRow, body: Obj) => {
    const name = str(body, 'displayName')?.trim();
    if (!name || name.length > 100)
      throw new ScimError(400, '"displayName" is required (at most 100 characters).', 'invalidValue');
    if (await repo.nameTaken(tx, c.team_id, name, group.id))
      throw new ScimError(409, `A group named "${name}" exists.`, 'uniqueness');
    const ids = await memberIdsOf(tx, c, getProp(body, 'members'));
    await repo.updateGroup(tx, c.team_id, group.id, c.id, name, str(body, 'externalId') ?? null);
    if (ids) {
      const before = new Set((await membersOf(tx, group.id)).map((m) => m.id));
      const after = new Set(ids);
      const added = ids.filter((id) => !before.has(id));
      const removed = [...before].filter((id) => !after.has(id));
      if (added.length > 0) await groupsRepository.addMembers(tx, group.id, added);
      if (removed.length > 0) await groupsRepository.removeMembers(tx, group.id, removed);
      if (added.length > 0) await scimEvent(tx, c, 'group_members_added', [name], { count: added.length });
      if (removed.length > 0) await scimEvent(tx, c, 'group_members_removed', [name], { count: removed.length });
    }
    if (group.name !== name) await scimEvent(tx, c, 'group_renamed', [name], { from: group.name });
  };

  /** Membership changes alone (Entra's and Okta's PATCH): only the members named are read or written. */
  const patchMembers = async (tx: Queryable, c: ConnectorRow, g: ScimGroupRow, delta: { add: string[]; remove: string[] }) => {
    const ids = delta.add.filter(isUuid);
    const { valid, added } = ids.length > 0 ? await repo.addGroupMembers(tx, c.team_id, g.id, ids) : { valid: 0, added: 0 };
    if (valid < delta.add.length) {
      const found = new Set(await repo.existingMembers(tx, c.team_id, ids));
      const absent = delta.add.filter((m) => !found.has(m));
      throw new ScimError(400, `Not users of this team: ${absent.slice(0, 10).join(', ')}.`, 'invalidValue');
    }
    const removed = delta.remove.length > 0 ? await groupsRepository.removeMembers(tx, g.id, delta.remove) : 0;
    await repo.claimGroup(tx, c.team_id, g.id, c.id);
    if (added > 0) await scimEvent(tx, c, 'group_members_added', [g.name], { count: added });
    if (removed > 0) await scimEvent(tx, c, 'group_members_removed', [g.name], { count: removed });
  };

  return {
    async listGroups(c: ConnectorRow, q: ListQuery) {
      const filter = filterOf(q);
      const { start, count } = paging(q);
      const attributes = attrList(q.attributes);
      const excluded = attrList(q.excludedAttributes);
      const needMembers =
        (q.filter ?? '').toLowerCase().includes('members') ||
        (q.sortBy ?? '').toLowerCase().includes('members') ||
        (attributes.length > 0
          ? attributes.some((a) => a.toLowerCase().startsWith('members'))
          : !excluded.some((a) => a.toLowerCase() === 'members'));
      const params: unknown[] = [c.team_id];
      const where = filter ? filterToSql(filter, GROUP_COLUMNS, params) : { sql: 'true', exact: true };
      const orderBy = sortToSql(q.sortBy, q.sortOrder, GROUP_COLUMNS, 'lower(name), id');
      const withMembers = async (rows: ScimGroupRow[]) => {
        if (!needMembers) return rows.map((g) => groupResource(g, null));
        const members = new Map<string, { id: string; email: string }[]>(rows.map((g) => [g.id, []]));
        for (const m of await repo.groupMembers(
          db,
          rows.map((g) => g.id),
        ))
          members.get(m.group_id)?.push(m);
        return rows.map((g) => groupResource(g, members.get(g.id) ?? []));
      };
      if (where.exact && orderBy) {
        const { rows, total } = await repo.groupsPage(db, where.sql, params, orderBy, start - 1, count);
        return listResponse(
          (await withMembers(rows)).map((r) => project(r, attributes, excluded)),
          total,
          start,
        );
      }
      let resources = await withMembers(await repo.groupsWhere(db, where.sql, params));
      if (filter) resources = resources.filter((r) => matches(filter, r));
      resources = sortResources(resources, q.sortBy, q.sortOrder);
      const page = resources.slice(start - 1, start - 1 + count);
      return listResponse(
        page.map((r) => project(r, attributes, excluded)),
        resources.length,
        start,
      );
    },
    async getGroup(c: ConnectorRow, id: string, q: ListQuery) {
      const g = await mustGroup(db, c, id);
      const excluded = attrList(q.excludedAttributes);
      const members = excluded.some((a) => a.toLowerCase() === 'members') ? null : await membersOf(db, g.id);
      return project(groupResource(g, members), attrList(q.attributes), excluded);
    },
    async createGroup(c: ConnectorRow, raw: unknown) {
      const body = checkSchemas(raw);
      const name = str(body, 'displayName')?.trim();
      if (!name || name.length > 100)
        throw new ScimError(400, '"displayName" is required (at most 100 characters).', 'invalidValue');
      const id = await db.transaction(async (tx) => {
        if (await repo.nameTaken(tx, c.team_id, name)) throw new ScimError(409, `A group named "${name}" exists.`, 'uniqueness');
        const ids = (await memberIdsOf(tx, c, getProp(body, 'members'))) ?? [];
        const created = await repo.createGroup(tx, c.team_id, c.id, name, str(body, 'externalId') ?? null);
        if (ids.length > 0) await groupsRepository.addMembers(tx, created, ids);
        await scimEvent(tx, c, 'group_created', [name], { members: ids.length });
        return created;
      });
      const g = await mustGroup(db, c, id);
      return groupResource(g, await membersOf(db, id));
    },
    async replaceGroup(c: ConnectorRow, id: string, raw: unknown, ifMatch: string | undefined) {
      const body = checkSchemas(raw);
      await db.transaction(async (tx) => {
        const g = await mustGroup(tx, c, id, true);
        checkIfMatch(ifMatch, etag(g.scim_version));
        await writeGroup(tx, c, g, body);
      });
      const g = await mustGroup(db, c, id);
      return groupResource(g, await membersOf(db, id));
    },
    async patchGroup(c: ConnectorRow, id: string, raw: unknown, ifMatch: string | undefined) {
      const delta = memberDelta(raw);
      await db.transaction(async (tx) => {
        const g = await mustGroup(tx, c, id, true);
        checkIfMatch(ifMatch, etag(g.scim_version));
        if (delta) {
          await patchMembers(tx, c, g, delta);
          return;
        }
        const current = groupResource(g, await membersOf(tx, g.id));
        const patched = applyPatch(current, raw, ['members']);
        if (!getProp(patched, 'members')) patched.members = [];
        await writeGroup(tx, c, g, patched);
      });
      return null;
    },
    async deleteGroup(c: ConnectorRow, id: string, ifMatch: string | undefined) {
      await db.transaction(async (tx) => {
        const g = await mustGroup(tx, c, id, true);
        checkIfMatch(ifMatch, etag(g.scim_version));
        await repo.deleteGroup(tx, c.team_id, id);
        await scimEvent(tx, c, 'groups_removed', [g.name]);
      });
    },
    groupResourceById: async (c: ConnectorRow, id: string) => {
      const g = await mustGroup(db, c, id);
      return groupResource(g, await membersOf(db, id));
    },
  };
}
