import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

/*
 * Replays of the request sequence Okta documents for its provisioning client ("SCIM 2.0 protocol"
 * reference and its Runscope test plan), with its bodies as documented, and Entra ID's group PATCH
 * at scale, against the real server and database. Entra ID's documented sequence, request by
 * request: scim.entra.test.ts.
 */
let h: Harness;
let token = '';
beforeAll(async () => {
  h = await startHarness();
  const admin = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
  const created = await h.post<{ token: string }>('/api/v1/team/scim/connector/create/', { idp: 'entra', name: 'Replay' }, admin);
  token = created.body.token;
});
afterAll(() => h?.close());

// biome-ignore lint/suspicious/noExplicitAny: SCIM replies are read loosely, as an identity provider reads them
type Json = Record<string, any>;
async function send(method: string, path: string, body?: unknown) {
  const res = await fetch(`${h.url}/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/scim+json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
}
const q = (filter: string) => `filter=${encodeURIComponent(filter)}`;

describe('Entra ID at scale', () => {
  test('a large group PATCH: 2,000 members in one request, then removed by value list', async () => {
    const [team] = await h.db.query<{ id: string }>(`select id from teams where slug = 'northwind'`);
    const ids = (
      await h.db.query<{ id: string }>(
        `insert into members (team_id, email, licensed) select $1, 'bulk' || g || '@northwind.example', false from generate_series(1, 2000) g returning id`,
        [team?.id],
      )
    ).map((r) => r.id);
    const group = await send('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Everyone bulk',
    });
    const started = Date.now();
    const add = await send('PATCH', `/Groups/${group.body.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Add', path: 'members', value: ids.map((value) => ({ value })) }],
    });
    expect(add.status, JSON.stringify(add.body)).toBe(204);
    const took = Date.now() - started;
    const [count] = await h.db.query<{ n: number }>('select count(*)::int as n from group_members where group_id = $1', [
      group.body.id,
    ]);
    expect(count?.n).toBe(2000);
    expect(took).toBeLessThan(10_000);
    const remove = await send('PATCH', `/Groups/${group.body.id}`, {
      Operations: [{ op: 'Remove', path: 'members', value: ids.slice(0, 1000).map((value) => ({ $ref: null, value })) }],
    });
    expect(remove.status).toBe(204);
    const [left] = await h.db.query<{ n: number }>('select count(*)::int as n from group_members where group_id = $1', [
      group.body.id,
    ]);
    expect(left?.n).toBe(1000);
  });
});

describe('Okta provisioning sequence', () => {
  test('lookup, create, read, replace, deactivate, reactivate; group push with members', async () => {
    const lookup = await send('GET', `/Users?${q('userName eq "test.user@northwind.example"')}&startIndex=1&count=100`);
    expect(lookup.body).toMatchObject({ totalResults: 0, itemsPerPage: 0, startIndex: 1 });

    const create = await send('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'test.user@northwind.example',
      name: { givenName: 'Test', familyName: 'User' },
      emails: [{ primary: true, value: 'test.user@northwind.example', type: 'work' }],
      displayName: 'Test User',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: '1mz050nq',
      active: true,
    });
    expect(create.status, JSON.stringify(create.body)).toBe(201);
    expect(create.body).not.toHaveProperty('password');
    expect(create.body).not.toHaveProperty('groups');
    const id = create.body.id;

    const read = await send('GET', `/Users/${id}`);
    expect(read.body).toMatchObject({ userName: 'test.user@northwind.example', displayName: 'Test User', locale: 'en-US' });

    // Okta updates profiles with PUT of the whole user.
    const put = await send('PUT', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id,
      userName: 'test.user@northwind.example',
      name: { givenName: 'Another', familyName: 'User' },
      emails: [{ primary: true, value: 'test.user@northwind.example', type: 'work' }],
      displayName: 'Another User',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      active: true,
      meta: { resourceType: 'User' },
    });
    expect(put.status).toBe(200);
    expect(put.body.name.givenName).toBe('Another');

    // Deactivate and reactivate: a PATCH without a path.
    const off = await send('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(off.body.active).toBe(false);
    const on = await send('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(on.body.active).toBe(true);
    // Restored to what it was: invited, since this member never joined.
    const [restored] = await h.db.query<{ status: string }>('select status from members where id = $1', [id]);
    expect(restored?.status).toBe('invited');

    // Group push: create with members, rename, add and remove members (by value filter).
    const second = await send('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'okta.second@northwind.example',
    });
    const group = await send('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Test SCIMv2',
      members: [{ value: id, display: 'test.user@northwind.example' }],
    });
    expect(group.status).toBe(201);
    expect(group.body.members.map((m: Json) => m.value)).toEqual([id]);
    const gid = group.body.id;
    const found = await send('GET', `/Groups?${q('displayName eq "Test SCIMv2"')}`);
    expect(found.body.Resources.map((g: Json) => g.id)).toEqual([gid]);
    const rename = await send('PATCH', `/Groups/${gid}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { id: gid, displayName: 'Test SCIMv2 renamed' } }],
    });
    expect(rename.status, JSON.stringify(rename.body)).toBe(204);
    const add = await send('PATCH', `/Groups/${gid}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'add', path: 'members', value: [{ value: second.body.id, display: 'okta.second@northwind.example' }] }],
    });
    expect(add.status).toBe(204);
    const remove = await send('PATCH', `/Groups/${gid}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }],
    });
    expect(remove.status).toBe(204);
    const final = await send('GET', `/Groups/${gid}`);
    expect(final.body).toMatchObject({ displayName: 'Test SCIMv2 renamed' });
    expect(final.body.members.map((m: Json) => m.value)).toEqual([second.body.id]);
    // Okta's PUT of a group replaces its members too.
    const putGroup = await send('PUT', `/Groups/${gid}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      id: gid,
      displayName: 'Test SCIMv2 renamed',
      members: [{ value: id }, { value: second.body.id }],
    });
    expect(putGroup.body.members).toHaveLength(2);
    expect((await send('DELETE', `/Groups/${gid}`)).status).toBe(204);
  });
});
