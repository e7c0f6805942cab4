import { createHash } from 'node:crypto';
import { BASE_DN, type LdifEntry, ldifEntries } from './slapd.ts';

/**
 * Generated directories for the sync tests, in Active Directory's shape and in OpenLDAP's: names
 * and DNs with non-ASCII letters, disabled accounts, entries without mail, and nested groups that
 * include a cycle. Ids are derived from the index, so a test can name any entry.
 */

const FIRST = ['Zoë', 'Ångström', 'José', 'Łucja', 'Çağla', 'Søren', 'Anaïs', 'Mia', 'Noah', 'Jürgen'];
const LAST = ['Müller', 'Øvergård', 'Nuñez', 'Dvořák', 'Šimić', 'Brontë', 'Smith', 'Ó Briain', 'Kowalski', 'Lee'];

export const nameOf = (i: number) => `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i}`;
export const loginOf = (i: number) => `user${i}`;
export const emailOf = (i: number) => `user${i}@example.test`;
/** Every 10th account is disabled (AD), every 25th has no mail. */
export const isDisabled = (i: number) => i % 10 === 9;
export const hasNoMail = (i: number) => i % 25 === 24;

export const guidOf = (seed: string) => createHash('sha256').update(seed).digest().subarray(0, 16);

const PEOPLE = `ou=People,${BASE_DN}`;
const GROUPS = `ou=Groups,${BASE_DN}`;
export const userDn = (i: number) => `cn=${nameOf(i)},${PEOPLE}`;
export const groupDn = (g: number) => `cn=Team ${g} – Ünits,${GROUPS}`;

const ous = (): LdifEntry[] => [
  { dn: PEOPLE, objectClass: 'organizationalUnit', ou: 'People' },
  { dn: GROUPS, objectClass: 'organizationalUnit', ou: 'Groups' },
];

/**
 * Group g holds users [g*size, (g+1)*size); group 0 also holds groups 1 and 2, group 2 holds group 0
 * (a cycle), group 1 holds group 3.
 */
export function groupMembers(g: number, users: number, size: number): { users: number[]; groups: number[] } {
  const from = (g * size) % Math.max(users, 1);
  const members = Array.from({ length: Math.min(size, users) }, (_, k) => (from + k) % users);
  const nested = g === 0 ? [1, 2] : g === 2 ? [0] : g === 1 ? [3] : [];
  return { users: members, groups: nested };
}

export function activeDirectoryLdif(options: { users: number; groups: number; groupSize?: number }): string {
  const size = options.groupSize ?? 20;
  const ad = (category: string) => ({
    instanceType: '4',
    nTSecurityDescriptor: Buffer.from([1, 0]),
    objectCategory: `CN=${category},CN=Schema,CN=Configuration,${BASE_DN}`,
  });
  const users: LdifEntry[] = Array.from({ length: options.users }, (_, i) => ({
    dn: userDn(i),
    objectClass: ['user', 'securityPrincipal'],
    cn: nameOf(i),
    sn: nameOf(i).split(' ')[1] as string,
    displayName: nameOf(i),
    sAMAccountName: loginOf(i),
    userPrincipalName: `${loginOf(i)}@corp.example.test`,
    ...(hasNoMail(i) ? {} : { mail: emailOf(i) }),
    userAccountControl: isDisabled(i) ? '514' : '512',
    objectGUID: guidOf(`user${i}`),
    ...ad('Person'),
  }));
  const groups: LdifEntry[] = Array.from({ length: options.groups }, (_, g) => {
    const members = groupMembers(g, options.users, size);
    return {
      dn: groupDn(g),
      objectClass: 'group',
      cn: `Team ${g} – Ünits`,
      groupType: '-2147483646',
      objectGUID: guidOf(`group${g}`),
      member: [...members.users.map(userDn), ...members.groups.filter((n) => n < options.groups).map(groupDn)],
      ...ad('Group'),
    };
  });
  return ldifEntries([...ous(), ...users, ...groups]);
}

/** inetOrgPerson users; groupOfNames, groupOfUniqueNames and posixGroup groups in turn. */
export function openLdapLdif(options: { users: number; groups: number; groupSize?: number }): string {
  const size = options.groupSize ?? 20;
  const users: LdifEntry[] = Array.from({ length: options.users }, (_, i) => ({
    dn: `uid=${loginOf(i)},${PEOPLE}`,
    objectClass: 'inetOrgPerson',
    uid: loginOf(i),
    cn: nameOf(i),
    sn: nameOf(i).split(' ')[1] as string,
    displayName: nameOf(i),
    ...(hasNoMail(i) ? {} : { mail: emailOf(i) }),
  }));
  const dnOf = (i: number) => `uid=${loginOf(i)},${PEOPLE}`;
  const groups = Array.from({ length: options.groups }, (_, g): LdifEntry => {
    const members = groupMembers(g, options.users, size);
    const nested = members.groups.filter((n) => n < options.groups).map(groupDn);
    const cn = `Team ${g} – Ünits`;
    if (g % 3 === 2)
      return {
        dn: groupDn(g),
        objectClass: 'posixGroup',
        cn,
        gidNumber: String(5000 + g),
        memberUid: members.users.map(loginOf),
      };
    if (g % 3 === 1)
      return { dn: groupDn(g), objectClass: 'groupOfUniqueNames', cn, uniqueMember: [...members.users.map(dnOf), ...nested] };
    return { dn: groupDn(g), objectClass: 'groupOfNames', cn, member: [...members.users.map(dnOf), ...nested] };
  });
  return ldifEntries([...ous(), ...users, ...groups]);
}
