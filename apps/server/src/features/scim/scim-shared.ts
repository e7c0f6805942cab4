import type { ActionName } from '@latchkey/contracts';
import type { Db, Queryable } from '@latchkey/runtime';
import type { MailOutbox } from '../../platform/mail.ts';
import { recordMemberEvents } from '../members/index.ts';
import type { ConnectorRow } from './scim-connectors.repository.ts';
import { getProp } from './scim-filter.ts';
import { ScimError } from './scim-patch.ts';

/** What the Users and Groups handlers are built with. */
export interface ScimContext {
  db: Db;
  mail: MailOutbox;
  /** The SCIM base URL resources link to. */
  baseUrl: () => string;
}

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const etag = (version: number) => `W/"${version}"`;

/** 412 unless If-Match is absent, `*`, or names the current version. */
export function checkIfMatch(ifMatch: string | undefined, current: string) {
  if (!ifMatch) return;
  const tags = ifMatch.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.includes(current)) return;
  throw new ScimError(412, 'The resource changed since that version (If-Match).');
}

/** A string attribute of the body (any case), or undefined; 400 when it is not a string. */
export const str = (body: Obj, name: string): string | undefined => {
  const v = getProp(body, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ScimError(400, `"${name}" must be a string.`, 'invalidValue');
  return v;
};

/** The body as an object whose `schemas`, when sent, is a list of URNs. */
export function checkSchemas(body: unknown): Obj {
  if (!isObj(body)) throw new ScimError(400, 'The body must be a JSON object.', 'invalidSyntax');
  const schemas = getProp(body, 'schemas');
  if (schemas !== undefined && schemas !== null && (!Array.isArray(schemas) || schemas.some((s) => typeof s !== 'string'))) {
    throw new ScimError(400, '"schemas" must be an array of URNs.', 'invalidSyntax');
  }
  return body;
}

/** A change made through SCIM, in the team's member history and event log, with the connector that made it. */
export const scimEvent = (q: Queryable, c: ConnectorRow, action: ActionName, targets: string[], detail: Obj = {}) =>
  recordMemberEvents(q, c.team_id, null, action, targets, {
    actor_type: 'scim',
    connector: c.id,
    connector_name: c.name,
    ...detail,
  });
