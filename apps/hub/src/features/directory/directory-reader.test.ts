import { DIRECTORY_PRESETS } from '@latchkey/contracts';
import { outboundPolicy } from '@latchkey/runtime';
import {
  activeDirectoryLdif,
  BASE_DN,
  emailOf,
  groupMembers,
  guidOf,
  hasNoMail,
  isDisabled,
  loginOf,
  nameOf,
  openLdapLdif,
  ROOT_DN,
  ROOT_PASSWORD,
  SYNC_DN,
  SYNC_PASSWORD,
  slapdAvailable,
  startSlapd,
  type TestDirectory,
} from '@latchkey/runtime/testing';
import { Client, SizeLimitExceededError } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guidText } from './directory-entries.ts';
import { readDirectory, withRangedValues } from './directory-reader.ts';
import { flattenGroups } from './group-nesting.ts';
import { DirectoryFailure, type LdapTarget, openLdap } from './ldap-session.ts';

// A real OpenLDAP (Debian's slapd) is part of the test set-up; CI installs it, and a machine without it says so.
if (!slapdAvailable() && process.env.CI) throw new Error('slapd is missing: apt-get install -y slapd ldap-utils');
const suite = slapdAvailable() ? describe : describe.skip;
if (!slapdAvailable()) console.warn('slapd is not installed: the directory tests are skipped on this machine (CI runs them)');

const USERS = 1_200; // past the server's size limit (500), so only paged reads see them all
const GROUPS = 12;
const policy = outboundPolicy({ production: false });

async function failureOf(promise: Promise<unknown>): Promise<DirectoryFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DirectoryFailure);
  return error as DirectoryFailure;
}

suite('reading Active Directory', () => {
  let directory: TestDirectory;
  let target: LdapTarget;
  beforeAll(async () => {
    directory = await startSlapd(activeDirectoryLdif({ users: USERS, groups: GROUPS }));
    target = { url: directory.ldapsUrl, security: 'ldaps', caPem: directory.caPem, bindDn: SYNC_DN, bindPassword: SYNC_PASSWORD };
  }, 60_000);
  afterAll(() => directory?.stop());

  it('the server refuses an unpaged read past its size limit (why the reader pages)', async () => {
    const client = await openLdap(target, policy);
    try {
      await expect(client.search(BASE_DN, { filter: '(objectClass=user)', attributes: ['cn'] })).rejects.toBeInstanceOf(
        SizeLimitExceededError,
      );
    } finally {
      await client.unbind();
    }
  });

  it('reads every user and group over LDAPS, a page at a time, mapped by the AD preset', async () => {
    const client = await openLdap(target, policy);
    const snapshot = await readDirectory(client, [BASE_DN], DIRECTORY_PRESETS.active_directory).finally(() => client.unbind());
    expect(snapshot.users).toHaveLength(USERS);
    expect(snapshot.groups).toHaveLength(GROUPS);
    const byLogin = new Map(snapshot.users.map((u) => [u.login, u]));
    const zoe = byLogin.get(loginOf(0));
    expect(zoe).toMatchObject({ name: nameOf(0), email: emailOf(0), disabled: false, id: guidText(guidOf('user0')) });
    expect(byLogin.get(loginOf(9))?.disabled).toBe(isDisabled(9));
    // No mail: the userPrincipalName stands in.
    expect(hasNoMail(24)).toBe(true);
    expect(byLogin.get(loginOf(24))?.email).toBe(`${loginOf(24)}@corp.example.test`);
    expect(snapshot.users.filter((u) => u.disabled)).toHaveLength(USERS / 10);
  });

  it('flattens nested groups and ends at a cycle', async () => {
    const client = await openLdap(target, policy);
    const snapshot = await readDirectory(client, [BASE_DN], DIRECTORY_PRESETS.active_directory).finally(() => client.unbind());
    const members = flattenGroups(snapshot.groups, snapshot.users);
    const idOf = new Map(snapshot.users.map((u) => [u.login, u.id]));
    const group = (g: number) => members.get(guidText(guidOf(`group${g}`))) as Set<string>;
    const users = (...gs: number[]) =>
      new Set(gs.flatMap((g) => groupMembers(g, USERS, 20).users.map((i) => idOf.get(loginOf(i)))));
    // 0 holds 1 and 2, 1 holds 3, 2 holds 0: a cycle.
    expect(group(0)).toEqual(users(0, 1, 2, 3));
    expect(group(2)).toEqual(users(0, 1, 2, 3));
    expect(group(1)).toEqual(users(1, 3));
    expect(group(5)).toEqual(users(5));
  });

  it('works over StartTLS with the CA, and refuses a certificate the CA did not sign', async () => {
    const startTls = { ...target, url: directory.url, security: 'starttls' as const };
    const client = await openLdap(startTls, policy);
    await client.unbind();
    expect((await failureOf(openLdap({ ...startTls, caPem: directory.otherCaPem }, policy))).code).toBe(
      'certificate_not_trusted',
    );
    expect((await failureOf(openLdap({ ...target, caPem: directory.otherCaPem }, policy))).code).toBe('certificate_not_trusted');
  });

  it('says in words why a bind, a base DN or an address fails, and never echoes the password', async () => {
    const refused = await failureOf(openLdap({ ...target, bindPassword: 'wrong-password' }, policy));
    expect(refused.code).toBe('bind_refused');
    expect(refused.message).toBe('bind refused: invalid credentials');
    expect(refused.message).not.toContain('wrong-password');

    const client = await openLdap(target, policy);
    const missing = await failureOf(
      readDirectory(client, [`ou=Nowhere,${BASE_DN}`], DIRECTORY_PRESETS.active_directory).finally(() => client.unbind()),
    );
    expect(missing.code).toBe('base_dn_not_found');

    const closed = await failureOf(openLdap({ ...target, url: 'ldaps://127.0.0.1:1' }, policy));
    expect(closed.code).toBe('unreachable');

    // In production a private address needs the operator's allow-list (the on-premise directory's name or network).
    const production = outboundPolicy({ production: true });
    expect((await failureOf(openLdap(target, production))).code).toBe('address_refused');
    const allowed = await openLdap(target, outboundPolicy({ production: true, allow: ['127.0.0.1'] }));
    await allowed.unbind();
  });
});

suite('reading OpenLDAP', () => {
  let directory: TestDirectory;
  beforeAll(async () => {
    directory = await startSlapd(openLdapLdif({ users: 700, groups: 6 }));
  }, 60_000);
  afterAll(() => directory?.stop());

  it('maps inetOrgPerson, groupOfNames, groupOfUniqueNames and posixGroup by entryUUID', async () => {
    const client = await openLdap(
      { url: directory.url, security: 'starttls', caPem: directory.caPem, bindDn: SYNC_DN, bindPassword: SYNC_PASSWORD },
      policy,
    );
    const snapshot = await readDirectory(client, [BASE_DN], DIRECTORY_PRESETS.openldap).finally(() => client.unbind());
    expect(snapshot.users).toHaveLength(700);
    expect(snapshot.users.every((u) => /^[0-9a-f-]{36}$/.test(u.id) && !u.disabled)).toBe(true);
    expect(snapshot.users.find((u) => u.login === loginOf(24))?.email).toBeNull();
    const members = flattenGroups(snapshot.groups, snapshot.users);
    const idOf = new Map(snapshot.users.map((u) => [u.login, u.id]));
    const byName = new Map(snapshot.groups.map((g) => [g.name, members.get(g.id)]));
    const users = (...gs: number[]) =>
      new Set(gs.flatMap((g) => groupMembers(g, 700, 20).users.map((i) => idOf.get(loginOf(i)))));
    expect(byName.get('Team 2 – Ünits')).toEqual(users(2)); // posixGroup, by memberUid
    expect(byName.get('Team 1 – Ünits')).toEqual(users(1, 3)); // groupOfUniqueNames holding a groupOfNames
    expect(byName.get('Team 0 – Ünits')).toEqual(users(0, 1, 2, 3));
  });

  it('sees a change made in the directory on the next read', async () => {
    const root = new Client({ url: directory.url });
    await root.bind(ROOT_DN, ROOT_PASSWORD);
    await root.del(`uid=${loginOf(5)},ou=People,${BASE_DN}`);
    await root.unbind();
    const client = await openLdap(
      { url: directory.ldapsUrl, security: 'ldaps', caPem: directory.caPem, bindDn: SYNC_DN, bindPassword: SYNC_PASSWORD },
      policy,
    );
    const snapshot = await readDirectory(client, [BASE_DN], DIRECTORY_PRESETS.openldap).finally(() => client.unbind());
    expect(snapshot.users).toHaveLength(699);
  });
});

describe('range retrieval (Active Directory slices a large member attribute)', () => {
  it('asks for each next slice until one ends in *', async () => {
    const all = Array.from({ length: 3500 }, (_, i) => `cn=u${i},dc=x`);
    const asked: string[] = [];
    const client = {
      search: async (_dn: string, options: { attributes: string[] }) => {
        const wanted = options.attributes[0] as string;
        asked.push(wanted);
        const from = Number(/range=(\d+)/.exec(wanted)?.[1]);
        const to = Math.min(from + 1499, all.length - 1);
        const end = to === all.length - 1 ? '*' : String(to);
        return {
          searchEntries: [{ dn: 'cn=big,dc=x', [`member;range=${from}-${end}`]: all.slice(from, to + 1) }],
          searchReferences: [],
        };
      },
    } as unknown as Client;
    const entry = await withRangedValues(client, { dn: 'cn=big,dc=x', cn: 'big', 'member;range=0-1499': all.slice(0, 1500) });
    expect(entry.member).toEqual(all);
    expect(asked).toEqual(['member;range=1500-*', 'member;range=3000-*']);
    expect(Object.keys(entry).some((k) => k.includes(';range='))).toBe(false);
  });
});
