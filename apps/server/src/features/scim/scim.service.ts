import { createHash, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Email } from '@latchkey/contracts';
import type { Db, Queryable } from '@latchkey/runtime';
import type { Filter } from 'scim2-parse-filter';
import type { MailOutbox } from '../../platform/mail.ts';
import { groupsRepository } from '../groups/index.ts';
import { membersRepository, recordMemberEvents } from '../members/index.ts';
import {
  GROUP_COLUMNS,
  isUuid,
  scimRepository as repo,
  type ScimGroupRow,
  type ScimMemberRow,
  type ScimMemberWrite,
  USER_COLUMNS,
} from './scim.repository.ts';
import type { ConnectorRow } from './scim-connectors.repository.ts';
import { getProp, InvalidFilter, matches, parseFilter, valuesAt } from './scim-filter.ts';
import { filterToSql, sortToSql } from './scim-filter-sql.ts';
import { memberDelta } from './scim-member-patch.ts';
import { applyPatch, normalizeBooleans, ScimError } from './scim-patch.ts';
import { CORE_GROUP, CORE_USER, ENTERPRISE_USER, isCaseExact, LIST_RESPONSE, MAX_RESULTS } from './scim-schema.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ListQuery {
  filter?: string;
  startIndex?: string;
  count?: string;
  sortBy?: string;
  sortOrder?: string;
  attributes?: string;
  excludedAttributes?: string;
}

/** Attributes a member's SCIM resource keeps in columns, never in `scim_attributes`. */
const USER_OWN = new Set(['schemas', 'id', 'meta', 'username', 'active', 'externalid', 'password', 'groups']);
const MAX_ATTRIBUTES_BYTES = 32 * 1024;
const MAX_USER_NAME = 512;
/** Multi-valued attributes of a User, for PATCH (RFC 7643 §4.1.2). */
const USER_MULTI_VALUED = ['emails', 'phoneNumbers', 'addresses', 'roles', 'entitlements', 'ims', 'photos', 'x509Certificates'];
/** Attributes of a User only the server writes (RFC 7643 §4.1.2: `groups` is readOnly). */
const USER_READ_ONLY = ['groups'];

export const etag = (version: number) => `W/"${version}"`;

/**
 * A member's ETag: its version, and which groups it is in, since `groups` is part of the User
 * (a group's membership changes without writing its members).
 */
const userEtag = (r: ScimMemberRow) =>
  r.groups.length === 0
    ? etag(r.scim_version)
    : `W/"${r.scim_version}.${createHash('sha256')
        .update(JSON.stringify(r.groups.map((g) => [g.id, g.name])))
        .digest('hex')
        .slice(0, 12)}"`;

function checkIfMatch(ifMatch: string | undefined, current: string) {
  if (!ifMatch) return;
  const tags = ifMatch.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.includes(current)) return;
  throw new ScimError(412, 'The resource changed since that version (If-Match).');
}

/**
 * Integer parameters, clamped as RFC 7644 §3.4.2.4 says (startIndex below 1 is 1, a negative count
 * is 0). A startIndex past every result is valid and answers an empty page; one past what a
 * JavaScript number holds exactly is past every result too, so it is held there (the database's
 * OFFSET takes it).
 */
function paging(q: ListQuery) {
  const start = q.startIndex === undefined ? 1 : Number.parseInt(q.startIndex, 10);
  const count = q.count === undefined ? 100 : Number.parseInt(q.count, 10);
  if (Number.isNaN(start) || Number.isNaN(count))
    throw new ScimError(400, 'startIndex and count must be integers.', 'invalidValue');
  return { start: Math.min(Number.MAX_SAFE_INTEGER, Math.max(1, start)), count: Math.min(MAX_RESULTS, Math.max(0, count)) };
}

const attrList = (v: string | undefined) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean) ?? [];

/** `attributes` / `excludedAttributes` (RFC 7644 §3.4.2.5): id and schemas always stay. */
export function project(resource: Obj, attributes: string[], excluded: string[]): Obj {
  const split = (a: string) => {
    const lower = a.toLowerCase();
    for (const urn of [ENTERPRISE_USER, CORE_USER, CORE_GROUP]) {
      if (lower === urn.toLowerCase()) return { ext: urn, path: [] as string[] };
      if (lower.startsWith(`${urn.toLowerCase()}:`)) {
        return { ext: urn === ENTERPRISE_USER ? urn : null, path: a.slice(urn.length + 1).split('.') };
      }
    }
    return { ext: null, path: a.split('.') };
  };
  const keyIn = (o: Obj, name: string) => Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  if (attributes.length > 0) {
    const out: Obj = { schemas: resource.schemas, id: resource.id };
    for (const a of attributes) {
      const { ext, path } = split(a);
      const from = ext ? (resource[ext] as Obj | undefined) : resource;
      if (!isObj(from)) continue;
      if (ext && !isObj(out[ext])) out[ext] = {};
      const into = (ext ? out[ext] : out) as Obj;
      if (path.length === 0) {
        Object.assign(into, from);
        continue;
      }
      const top = keyIn(from, path[0] as string);
      if (!top) continue;
      if (path.length === 1) into[top] = from[top];
      else {
        const inner = from[top];
        const sub = path[1] as string;
        if (Array.isArray(inner)) {
          into[top] = inner.map((el) =>
            isObj(el) ? Object.fromEntries(Object.entries(el).filter(([k]) => k.toLowerCase() === sub.toLowerCase())) : el,
          );
        } else if (isObj(inner)) {
          const k = keyIn(inner, sub);
          if (k) into[top] = { ...((into[top] as Obj | undefined) ?? {}), [k]: inner[k] };
        }
      }
    }
    return out;
  }
  if (excluded.length === 0) return resource;
  const out = structuredClone(resource);
  for (const a of excluded) {
    const { ext, path } = split(a);
    const from = ext ? (out[ext] as Obj | undefined) : out;
    if (!isObj(from)) continue;
    if (path.length === 0) {
      if (ext) delete out[ext];
      continue;
    }
    const top = keyIn(from, path[0] as string);
    if (!top || (!ext && ['id', 'schemas'].includes(top.toLowerCase()))) continue;
    if (path.length === 1) delete from[top];
    else if (isObj(from[top])) {
      const k = keyIn(from[top] as Obj, path[1] as string);
      if (k) delete (from[top] as Obj)[k];
    } else if (Array.isArray(from[top])) {
      for (const el of from[top] as unknown[])
        if (isObj(el)) for (const k of Object.keys(el)) if (k.toLowerCase() === (path[1] as string).toLowerCase()) delete el[k];
    }
  }
  return out;
}

export function sortResources(resources: Obj[], sortBy: string | undefined, sortOrder: string | undefined): Obj[] {
  if (!sortBy) return resources;
  const descending = sortOrder?.toLowerCase() === 'descending';
  const exact = isCaseExact(sortBy);
  const key = (r: Obj) => {
    const [v] = valuesAt(r, sortBy).values;
    if (v === undefined || v === null) return null;
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return exact ? s : s.toLowerCase();
  };
  const keyed = resources.map((r) => ({ r, k: key(r) }));
  keyed.sort((a, b) => {
    if (a.k === b.k) return 0;
    if (a.k === null) return 1; // missing values last, whatever the order
    if (b.k === null) return -1;
    return (a.k < b.k ? -1 : 1) * (descending ? -1 : 1);
  });
  return keyed.map((x) => x.r);
}

function filterOf(q: ListQuery): Filter | null {
  if (q.filter === undefined) return null;
  try {
    return parseFilter(q.filter);
  } catch (error) {
    if (error instanceof InvalidFilter) throw new ScimError(400, error.message, 'invalidFilter');
    throw error;
  }
}

const str = (body: Obj, name: string): string | undefined => {
  const v = getProp(body, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ScimError(400, `"${name}" must be a string.`, 'invalidValue');
  return v;
};

function checkSchemas(body: unknown): Obj {
  if (!isObj(body)) throw new ScimError(400, 'The body must be a JSON object.', 'invalidSyntax');
  const schemas = getProp(body, 'schemas');
  if (schemas !== undefined && schemas !== null && (!Array.isArray(schemas) || schemas.some((s) => typeof s !== 'string'))) {
    throw new ScimError(400, '"schemas" must be an array of URNs.', 'invalidSyntax');
  }
  return body;
}

/**
 * The address a member is invited at: the primary email, else the one of type work, else userName
 * when it is an address (Okta's usual userName), else any other email; 400 when there is none.
 */
function memberEmail(body: Obj, userName: string): string {
  const emails = getProp(body, 'emails');
  const list = (Array.isArray(emails) ? emails : [emails]).filter(isObj);
  const addressOf = (e: Obj) => getProp(e, 'value');
  const typeOf = (e: Obj) => String(getProp(e, 'type') ?? '').toLowerCase();
  const candidates = [
    ...list.filter((e) => getProp(e, 'primary') === true).map(addressOf),
    ...list.filter((e) => typeOf(e) === 'work').map(addressOf),
    userName,
    ...list.map(addressOf),
  ];
  for (const candidate of candidates) {
    const email = typeof candidate === 'string' ? Email.safeParse(candidate) : undefined;
    if (email?.success) return email.data;
  }
  throw new ScimError(
    400,
    'The user has no email address to invite: send one in "emails" (primary, or of type "work"), or a "userName" that is one.',
    'invalidValue',
  );
}

/** What a user resource says about the member: userName, email, display name, active, externalId, other attributes. */
function userFields(body: Obj): ScimMemberWrite & { active: boolean } {
  normalizeBooleans(body);
  const userName = str(body, 'userName');
  if (!userName?.trim()) throw new ScimError(400, '"userName" is required.', 'invalidValue');
  if (userName.length > MAX_USER_NAME)
    throw new ScimError(400, `"userName" is too long (at most ${MAX_USER_NAME} characters).`, 'invalidValue');
  const email = memberEmail(body, userName);
  const active = getProp(body, 'active');
  if (active !== undefined && active !== null && typeof active !== 'boolean') {
    throw new ScimError(400, '"active" must be a boolean.', 'invalidValue');
  }
  const externalId = str(body, 'externalId') ?? null;
  const attributes: Obj = {};
  for (const [k, v] of Object.entries(body)) if (!USER_OWN.has(k.toLowerCase()) && v !== null) attributes[k] = v;
  if (JSON.stringify(attributes).length > MAX_ATTRIBUTES_BYTES) throw new ScimError(413, 'The resource is too large.');
  const nameObj = getProp(body, 'name');
  const given = isObj(nameObj) ? getProp(nameObj, 'givenName') : undefined;
  const family = isObj(nameObj) ? getProp(nameObj, 'familyName') : undefined;
  const formatted = isObj(nameObj) ? getProp(nameObj, 'formatted') : undefined;
  const display = getProp(body, 'displayName');
  const name = (
    (typeof display === 'string' && display) ||
    (typeof formatted === 'string' && formatted) ||
    [given, family].filter((s) => typeof s === 'string' && s).join(' ')
  ).slice(0, 200);
  return { userName, email, active: active !== false, externalId, attributes, name };
}

/** SCIM Users and Groups over the team's members and groups, as the console's own actions do. */
export function createScimService(db: Db, mail: MailOutbox, baseUrl: () => string) {
  const userResource = (r: ScimMemberRow): Obj => {
    const attrs = r.scim_attributes ?? {};
    const resource: Obj = {
      schemas: getProp(attrs, ENTERPRISE_USER) ? [CORE_USER, ENTERPRISE_USER] : [CORE_USER],
      id: r.id,
      ...(r.scim_external_id ? { externalId: r.scim_external_id } : {}),
      userName: r.scim_user_name ?? r.email,
      ...(r.name && !getProp(attrs, 'displayName') ? { displayName: r.name } : {}),
      ...attrs,
      active: r.status !== 'suspended',
      ...(r.groups.length > 0
        ? {
            groups: r.groups.map((g) => ({
              value: g.id,
              $ref: `${baseUrl()}/Groups/${g.id}`,
              display: g.name,
              type: 'direct',
            })),
          }
        : {}),
      meta: {
        resourceType: 'User',
        created: new Date(r.onboarded_at).toISOString(),
        lastModified: new Date(r.updated_at).toISOString(),
        location: `${baseUrl()}/Users/${r.id}`,
        version: userEtag(r),
      },
    };
    if (!getProp(resource, 'emails')) resource.emails = [{ value: r.email, type: 'work', primary: true }];
    return resource;
  };

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

  const listResponse = (resources: Obj[], total: number, start: number) => ({
    schemas: [LIST_RESPONSE],
    totalResults: total,
    startIndex: start,
    itemsPerPage: resources.length,
    Resources: resources,
  });

  const event = (q: Queryable, c: ConnectorRow, action: string, targets: string[], detail: Obj = {}) =>
    recordMemberEvents(q, c.team_id, null, action, targets, {
      actor_type: 'scim',
      connector: c.id,
      connector_name: c.name,
      ...detail,
    });

  const mustUser = async (q: Queryable, c: ConnectorRow, id: string, lock = false) => {
    const row = await repo.member(q, c.team_id, id, lock);
    if (!row) throw new ScimError(404, `No user ${id}.`);
    return row;
  };
  const mustGroup = async (q: Queryable, c: ConnectorRow, id: string, lock = false) => {
    const row = await repo.group(q, c.team_id, id, lock);
    if (!row) throw new ScimError(404, `No group ${id}.`);
    return row;
  };
  const membersOf = async (q: Queryable, groupId: string) =>
    (await repo.groupMembers(q, [groupId])).map((m) => ({ id: m.id, email: m.email }));

  /**
   * Suspends or restores as the console does (a restore returns the member to the status the
   * suspension ended: one who never joined stays invited); admins are never suspended by SCIM. The
   * member as it is then when its status moved (undefined: read it again), null when it did not.
   */
  const applyActive = async (
    tx: Queryable,
    c: ConnectorRow,
    row: ScimMemberRow,
    active: boolean,
  ): Promise<ScimMemberRow | undefined | null> => {
    if (!active && row.status !== 'suspended') {
      if (await repo.isAdmin(tx, c.team_id, row.email)) {
        throw new ScimError(403, 'An administrator of this team cannot be deactivated through SCIM.');
      }
      const moved = await repo.suspendMember(tx, c.team_id, row.id);
      await event(tx, c, 'member_suspended', [row.email]);
      return moved;
    }
    if (active && row.status === 'suspended') {
      const moved = await repo.restoreMember(tx, c.team_id, row.id);
      await event(tx, c, 'member_restored', [row.email]);
      return moved;
    }
    return null;
  };

  /** The member as written (undefined: read it again). */
  const writeUser = async (tx: Queryable, c: ConnectorRow, row: ScimMemberRow, body: Obj): Promise<ScimMemberRow | undefined> => {
    const f = userFields(body);
    const userName = row.scim_user_name ?? row.email;
    if (f.userName.toLowerCase() !== userName.toLowerCase() && (await repo.userNameTaken(tx, c.team_id, f.userName, row.id))) {
      throw new ScimError(409, `The userName "${f.userName}" is taken.`, 'uniqueness');
    }
    if (f.email !== row.email) {
      if (await repo.memberByEmail(tx, c.team_id, f.email))
        throw new ScimError(409, `${f.email} is already a member.`, 'uniqueness');
      if (await repo.isAdmin(tx, c.team_id, row.email)) {
        throw new ScimError(403, "An administrator's email address cannot be changed through SCIM.");
      }
    }
    const updated = await repo.updateMember(tx, c.team_id, row.id, f);
    const moved = await applyActive(tx, c, row, f.active);
    await event(tx, c, 'member_updated', [f.email]);
    return moved === null ? updated : moved;
  };

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
      if (added.length > 0) await event(tx, c, 'group_members_added', [name], { count: added.length });
      if (removed.length > 0) await event(tx, c, 'group_members_removed', [name], { count: removed.length });
    }
    if (group.name !== name) await event(tx, c, 'group_renamed', [name], { from: group.name });
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
    if (added > 0) await event(tx, c, 'group_members_added', [g.name], { count: added });
    if (removed > 0) await event(tx, c, 'group_members_removed', [g.name], { count: removed });
  };

  return {
    async listUsers(c: ConnectorRow, q: ListQuery) {
      const filter = filterOf(q);
      const { start, count } = paging(q);
      const attributes = attrList(q.attributes);
      const excluded = attrList(q.excludedAttributes);
      // The filter in SQL; what it cannot say exactly (value paths, attributes without a column) is
      // narrowed in SQL as far as it goes and finished in memory by the evaluator.
      const params: unknown[] = [c.team_id];
      const where = filter ? filterToSql(filter, USER_COLUMNS, params) : { sql: 'true', exact: true };
      const orderBy = sortToSql(q.sortBy, q.sortOrder, USER_COLUMNS, 'email');
      if (where.exact && orderBy) {
        const { rows, total } = await repo.membersPage(db, where.sql, params, orderBy, start - 1, count);
        return listResponse(
          rows.map((r) => project(userResource(r), attributes, excluded)),
          total,
          start,
        );
      }
      let resources = (await repo.membersWhere(db, where.sql, params)).map(userResource);
      if (filter) resources = resources.filter((r) => matches(filter, r));
      resources = sortResources(resources, q.sortBy, q.sortOrder);
      const page = resources.slice(start - 1, start - 1 + count);
      return listResponse(
        page.map((r) => project(r, attributes, excluded)),
        resources.length,
        start,
      );
    },

    async getUser(c: ConnectorRow, id: string, q: ListQuery) {
      const r = userResource(await mustUser(db, c, id));
      return project(r, attrList(q.attributes), attrList(q.excludedAttributes));
    },

    async createUser(c: ConnectorRow, raw: unknown) {
      const body = checkSchemas(raw);
      const f = userFields(body);
      const created = await db.transaction(async (tx) => {
        if (await repo.userNameTaken(tx, c.team_id, f.userName)) {
          throw new ScimError(409, `The userName "${f.userName}" is taken.`, 'uniqueness');
        }
        // One statement for the member and its attributes; then the licence count, which counts it.
        const inserted = await repo.insertMember(tx, c.team_id, f);
        if (!inserted) throw new ScimError(409, `${f.email} is already a member.`, 'uniqueness');
        const { licence_total: licenceTotal, ...row } = inserted;
        // Licences as for the console's invitations; an unlimited team needs no lock (nothing to run out of).
        if (licenceTotal >= 0) {
          const { total, used } = await membersRepository.lockLicences(tx, c.team_id);
          if (total >= 0 && used > total) {
            throw new ScimError(
              403,
              `No licence left for ${f.email}: ${used - 1} of ${total} in use. Buy more licences or revoke unused ones.`,
            );
          }
        }
        await event(tx, c, 'member_invited', [f.email]);
        const moved = f.active ? null : await applyActive(tx, c, row, false);
        await mail.send(
          tx,
          {
            to: f.email,
            subject: "You're invited to your team on Latchkey",
            text: `Your organisation added you to its Latchkey team, your team's password manager.\n\nInstall the Latchkey app and sign in with ${f.email} to accept.`,
          },
          `invitation:${c.team_id}:${f.email}:${randomUUID()}`,
        );
        return moved === null ? row : (moved ?? row.id);
      });
      return userResource(typeof created === 'string' ? await mustUser(db, c, created) : created);
    },

    async replaceUser(c: ConnectorRow, id: string, raw: unknown, ifMatch: string | undefined) {
      const body = checkSchemas(raw);
      const written = await db.transaction(async (tx) => {
        const row = await mustUser(tx, c, id, true);
        checkIfMatch(ifMatch, userEtag(row));
        return writeUser(tx, c, row, body);
      });
      return userResource(written ?? (await mustUser(db, c, id)));
    },

    async patchUser(c: ConnectorRow, id: string, raw: unknown, ifMatch: string | undefined) {
      const written = await db.transaction(async (tx) => {
        const row = await mustUser(tx, c, id, true);
        checkIfMatch(ifMatch, userEtag(row));
        const current = userResource(row);
        const patched = applyPatch(current, raw, USER_MULTI_VALUED, USER_READ_ONLY);
        // `emails` shown for a member whose identity provider sent none (its email) are not kept
        // unless the patch changed them, so the email still follows an address userName; with a
        // userName that is no address they are kept, and the member keeps its email.
        const shownOnly = !getProp(row.scim_attributes, 'emails') && isDeepStrictEqual(patched.emails, current.emails);
        const userName = getProp(patched, 'userName');
        if (shownOnly && typeof userName === 'string' && Email.safeParse(userName).success) delete patched.emails;
        return writeUser(tx, c, row, patched);
      });
      return userResource(written ?? (await mustUser(db, c, id)));
    },

    async deleteUser(c: ConnectorRow, id: string, ifMatch: string | undefined) {
      await db.transaction(async (tx) => {
        const row = await mustUser(tx, c, id, true);
        checkIfMatch(ifMatch, userEtag(row));
        if (await repo.isAdmin(tx, c.team_id, row.email)) {
          throw new ScimError(403, 'An administrator of this team cannot be removed through SCIM.');
        }
        // As the console's remove: deboarded, licence freed.
        const removed = await membersRepository.deboard(tx, c.team_id, [row.email]);
        await event(tx, c, 'member_removed', removed);
      });
    },

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
        await event(tx, c, 'group_created', [name], { members: ids.length });
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
        await event(tx, c, 'groups_removed', [g.name]);
      });
    },

    groupResourceById: async (c: ConnectorRow, id: string) => {
      const g = await mustGroup(db, c, id);
      return groupResource(g, await membersOf(db, id));
    },
  };
}
export type ScimService = ReturnType<typeof createScimService>;
