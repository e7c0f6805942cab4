import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Email } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';
import { membersRepository } from '../members/index.ts';
import { lockLicences, recordLicencesTaken } from '../team/index.ts';
import { scimRepository as repo, type ScimMemberRow } from './scim.repository.ts';
import { USER_COLUMNS } from './scim-columns.ts';
import type { ConnectorRow } from './scim-connectors.repository.ts';
import { getProp, matches } from './scim-filter.ts';
import { filterToSql, sortToSql } from './scim-filter-sql.ts';
import { attrList, filterOf, type ListQuery, listResponse, paging, project, sortResources } from './scim-list-query.ts';
import { applyPatch, ScimError } from './scim-patch.ts';
import { CORE_USER, ENTERPRISE_USER } from './scim-schema.ts';
import { checkIfMatch, checkSchemas, type Obj, type ScimContext, scimEvent } from './scim-shared.ts';
import { USER_MULTI_VALUED, USER_READ_ONLY, userEtag, userFields } from './scim-user-fields.ts';

/** SCIM Users over the team's members: list, read, create (an invitation), replace, patch, delete. */
export function createScimUsers({ db, mail, baseUrl }: ScimContext) {
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

  const mustUser = async (q: Queryable, c: ConnectorRow, id: string, lock = false) => {
    const row = await repo.member(q, c.team_id, id, lock);
    if (!row) throw new ScimError(404, `No user ${id}.`);
    return row;
  };

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
      await scimEvent(tx, c, 'member_suspended', [row.email]);
      return moved;
    }
    if (active && row.status === 'suspended') {
      const moved = await repo.restoreMember(tx, c.team_id, row.id);
      await scimEvent(tx, c, 'member_restored', [row.email]);
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
    await scimEvent(tx, c, 'member_updated', [f.email]);
    return moved === null ? updated : moved;
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
        if (licenceTotal !== null && licenceTotal >= 0) {
          const { total, used } = await lockLicences(tx, c.team_id);
          if (total >= 0 && used > total) {
            throw new ScimError(
              403,
              `No licence left for ${f.email}: ${used - 1} of ${total} in use. Buy more licences or revoke unused ones.`,
            );
          }
          // The count holds the new member already: it took one of the `used - 1` before it.
          await recordLicencesTaken(tx, c.team_id, { total, used: used - 1 }, 1);
        }
        await scimEvent(tx, c, 'member_invited', [f.email]);
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
        await scimEvent(tx, c, 'member_removed', removed);
      });
    },
  };
}
