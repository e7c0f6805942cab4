import { createHash } from 'node:crypto';
import { Email } from '@latchkey/contracts';
import type { ScimMemberRow, ScimMemberWrite } from './scim.repository.ts';
import { getProp } from './scim-filter.ts';
import { normalizeBooleans, ScimError } from './scim-patch.ts';
import { etag, isObj, type Obj, str } from './scim-shared.ts';

/** Attributes a member's SCIM resource keeps in columns, never in `scim_attributes`. */
const USER_OWN = new Set(['schemas', 'id', 'meta', 'username', 'active', 'externalid', 'password', 'groups']);
const MAX_ATTRIBUTES_BYTES = 32 * 1024;
const MAX_USER_NAME = 512;
/** Multi-valued attributes of a User, for PATCH (RFC 7643 §4.1.2). */
export const USER_MULTI_VALUED = [
  'emails',
  'phoneNumbers',
  'addresses',
  'roles',
  'entitlements',
  'ims',
  'photos',
  'x509Certificates',
];
/** Attributes of a User only the server writes (RFC 7643 §4.1.2: `groups` is readOnly). */
export const USER_READ_ONLY = ['groups'];

/**
 * A member's ETag: its version, and which groups it is in, since `groups` is part of the User
 * (a group's membership changes without writing its members).
 */
export const userEtag = (r: ScimMemberRow) =>
  r.groups.length === 0
    ? etag(r.scim_version)
    : `W/"${r.scim_version}.${createHash('sha256')
        .update(JSON.stringify(r.groups.map((g) => [g.id, g.name])))
        .digest('hex')
        .slice(0, 12)}"`;

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
export function userFields(body: Obj): ScimMemberWrite & { active: boolean } {
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
