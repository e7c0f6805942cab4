import type { DirectoryMapping } from '@latchkey/contracts';

/** A member as the directory has them, by its stable id. */
export interface DirectoryUser {
  id: string;
  dn: string;
  email: string | null;
  name: string;
  login: string | null;
  disabled: boolean;
}

/** A group as the directory has it: its direct members, by DN and by login (nested groups are DNs too). */
export interface DirectoryGroup {
  id: string;
  dn: string;
  name: string;
  memberDns: string[];
  memberLogins: string[];
}

export type RawValue = string | Buffer | (string | Buffer)[];
export type RawEntry = { dn: string } & Record<string, RawValue | undefined>;

/** Attributes that hold bytes, not text. */
export const BINARY_ATTRIBUTES = ['objectGUID', 'objectSid'];

const ACCOUNTDISABLE = 2;

/** Attribute names are case-insensitive (RFC 4512 §2.5). */
function valuesOf(entry: RawEntry, attribute: string): (string | Buffer)[] {
  if (!attribute) return [];
  const wanted = attribute.toLowerCase();
  const key = Object.keys(entry).find((name) => name.toLowerCase() === wanted);
  const value = key === undefined ? undefined : entry[key];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

const firstText = (entry: RawEntry, attribute: string) => {
  const [value] = valuesOf(entry, attribute);
  if (value === undefined) return null;
  const text = (Buffer.isBuffer(value) ? value.toString('utf8') : value).trim();
  return text === '' ? null : text;
};

/**
 * Active Directory's objectGUID is 16 bytes whose first three fields are little-endian; written the
 * way AD's own tools write it, so an admin can search for it there.
 */
export function guidText(bytes: Buffer): string {
  if (bytes.length !== 16) return bytes.toString('hex');
  const hex = (from: number, to: number, reverse: boolean) => {
    const part = [...bytes.subarray(from, to)];
    return (reverse ? part.reverse() : part).map((b) => b.toString(16).padStart(2, '0')).join('');
  };
  return `${hex(0, 4, true)}-${hex(4, 6, true)}-${hex(6, 8, true)}-${hex(8, 10, false)}-${hex(10, 16, false)}`;
}

/** The id attribute's value as text: a GUID for 16 bytes, else the text. */
function idOf(entry: RawEntry, attribute: string): string | null {
  const [value] = valuesOf(entry, attribute);
  if (value === undefined) return null;
  if (Buffer.isBuffer(value)) return value.length === 16 ? guidText(value) : firstText(entry, attribute);
  return value.trim().toLowerCase() || null;
}

/** DNs compare without case and without spaces around separators (enough for the DNs one directory returns about itself). */
export const dnKey = (dn: string) =>
  dn
    .trim()
    .replace(/\s*([,=+])\s*/g, '$1')
    .toLowerCase();

export function userOf(entry: RawEntry, mapping: DirectoryMapping): DirectoryUser | null {
  const id = idOf(entry, mapping.user_id);
  if (!id) return null;
  const email = firstText(entry, mapping.user_email) ?? firstText(entry, mapping.user_email_fallback);
  const login = firstText(entry, mapping.user_login);
  const control = Number(firstText(entry, mapping.user_disabled) ?? '0');
  return {
    id,
    dn: entry.dn,
    email: email && /^[^\s@]+@[^\s@]+$/.test(email) ? email.toLowerCase() : null,
    name: firstText(entry, mapping.user_name) ?? firstText(entry, 'cn') ?? login ?? email ?? id,
    login,
    disabled: Number.isFinite(control) && (control & ACCOUNTDISABLE) !== 0,
  };
}

export function groupOf(entry: RawEntry, mapping: DirectoryMapping): DirectoryGroup | null {
  const id = idOf(entry, mapping.group_id);
  if (!id) return null;
  const texts = (attributes: string[]) =>
    attributes.flatMap((attribute) => valuesOf(entry, attribute).map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : v)));
  return {
    id,
    dn: entry.dn,
    name: firstText(entry, mapping.group_name) ?? entry.dn,
    memberDns: texts(mapping.group_member_dns),
    memberLogins: texts(mapping.group_member_logins),
  };
}
