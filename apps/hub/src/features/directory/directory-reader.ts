import type { DirectoryMapping } from '@latchkey/contracts';
import type { Client } from 'ldapts';
import {
  BINARY_ATTRIBUTES,
  type DirectoryGroup,
  type DirectoryUser,
  groupOf,
  type RawEntry,
  type RawValue,
  userOf,
} from './directory-entries.ts';
import { directoryFailure } from './ldap-session.ts';

/** Below Active Directory's MaxPageSize (1,000) and OpenLDAP's default size limit (500). */
export const PAGE_SIZE = 500;

const userAttributes = (m: DirectoryMapping) =>
  [m.user_id, m.user_email, m.user_email_fallback, m.user_name, m.user_login, m.user_disabled, 'cn'].filter(Boolean);
const groupAttributes = (m: DirectoryMapping) => [m.group_id, m.group_name, ...m.group_member_dns, ...m.group_member_logins];

/**
 * Every entry under `baseDn` matching `filter`, a page at a time (RFC 2696 paged results), so
 * directories past the server's size limit are read whole and the Hub holds one page of raw entries.
 */
async function* pages(client: Client, baseDn: string, filter: string, attributes: string[]): AsyncGenerator<RawEntry[]> {
  try {
    for await (const page of client.searchPaginated(baseDn, {
      scope: 'sub',
      filter,
      attributes,
      paged: { pageSize: PAGE_SIZE },
      explicitBufferAttributes: BINARY_ATTRIBUTES,
    }))
      yield page.searchEntries as RawEntry[];
  } catch (error) {
    throw directoryFailure(error);
  }
}

const RANGED = /^(.+);range=(\d+)-(\d+|\*)$/i;

/**
 * Active Directory returns a large multi-valued attribute in slices (`member;range=0-1499`, range
 * retrieval, MS-ADTS 3.1.1.3.1.3.3); the rest is asked for slice by slice until one ends in `*`.
 */
export async function withRangedValues(client: Client, entry: RawEntry): Promise<RawEntry> {
  for (const key of Object.keys(entry)) {
    const match = RANGED.exec(key);
    if (!match) continue;
    const [, attribute, , end] = match as unknown as [string, string, string, string];
    const values = [...toArray(entry[key])];
    let last = end;
    while (last !== '*') {
      const next = `${attribute};range=${Number(last) + 1}-*`;
      const { searchEntries } = await client.search(entry.dn, { scope: 'base', filter: '(objectClass=*)', attributes: [next] });
      const slice = searchEntries[0] as RawEntry | undefined;
      const sliceKey =
        slice && Object.keys(slice).find((name) => RANGED.exec(name)?.[1]?.toLowerCase() === attribute.toLowerCase());
      if (!slice || !sliceKey) break;
      values.push(...toArray(slice[sliceKey]));
      last = (RANGED.exec(sliceKey) as RegExpExecArray)[3] as string;
    }
    delete entry[key];
    entry[attribute] = values;
  }
  return entry;
}

const toArray = (value: RawValue | undefined): (string | Buffer)[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

export interface DirectorySnapshot {
  users: DirectoryUser[];
  groups: DirectoryGroup[];
  /** Entries the mapping could not read (no id): counted, not synced. */
  skipped: number;
}

/** The users and groups under every base DN, mapped. An entry found under two base DNs counts once. */
export async function readDirectory(
  client: Client,
  baseDns: readonly string[],
  mapping: DirectoryMapping,
): Promise<DirectorySnapshot> {
  const users = new Map<string, DirectoryUser>();
  const groups = new Map<string, DirectoryGroup>();
  let skipped = 0;
  for (const baseDn of baseDns) {
    for await (const page of pages(client, baseDn, mapping.user_filter, userAttributes(mapping)))
      for (const entry of page) {
        const user = userOf(entry, mapping);
        if (user) users.set(user.id, user);
        else skipped++;
      }
    for await (const page of pages(client, baseDn, mapping.group_filter, groupAttributes(mapping)))
      for (const entry of page) {
        const group = groupOf(await withRangedValues(client, entry), mapping);
        if (group) groups.set(group.id, group);
        else skipped++;
      }
  }
  return { users: [...users.values()], groups: [...groups.values()], skipped };
}
