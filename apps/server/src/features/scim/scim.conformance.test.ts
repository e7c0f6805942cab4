import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

/*
 * Replays of the request sequences Microsoft Entra ID and Okta document for their provisioning
 * clients (Entra: "Tutorial: develop and plan provisioning for a SCIM endpoint", its request and
 * response examples; Okta: "SCIM 2.0 protocol" reference and its Runscope test plan), with their
 * bodies as documented, against the real server and database.
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

describe('Entra ID provisioning sequence', () => {
  test('create, query, update attributes, disable, groups with members, delete', async () => {
    // "Get User by query — zero results" precedes every create.
    const none = await send(
      'GET',
      `/Users?${q('userName eq "Test_User_dfeef4c5-5681-4387-b016-bdf221e82081@northwind.example"')}`,
    );
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [], startIndex: 1 });

    // Create User
    const create = await send('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@northwind.example',
      active: true,
      emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@northwind.example' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
    });
    expect(create.status, JSON.stringify(create.body)).toBe(201);
    const id = create.body.id;
    expect(create.body).toMatchObject({
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'test_user_ab6490ee-1e48-479e-a20b-2d77186b5dd1@northwind.example',
      active: true,
      name: { familyName: 'familyName', givenName: 'givenName' },
      meta: { resourceType: 'User' },
    });

    // Get User, Get User by query (userName, then externalId)
    expect((await send('GET', `/Users/${id}`)).body.id).toBe(id);
    const byName = await send(
      'GET',
      `/Users?${q('userName eq "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@northwind.example"')}`,
    );
    expect(byName.body.Resources.map((r: Json) => r.id)).toEqual([id]);
    const byExternal = await send('GET', `/Users?${q('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`);
    expect(byExternal.body.totalResults).toBe(1);

    // Update User [Multi-valued properties]
    const multi = await send('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
      ],
    });
    expect(multi.status, JSON.stringify(multi.body)).toBe(200);
    expect(multi.body.emails).toEqual([{ primary: true, type: 'work', value: 'updatedEmail@microsoft.com' }]);
    expect(multi.body.name.familyName).toBe('updatedFamilyName');

    // Update User [Single-valued properties], and the enterprise extension's manager
    const single = await send('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'Replace', path: 'userName', value: '5b50642d-79fc-4410-9e90-4c077cdd1a59@northwind.example' },
        {
          op: 'Add',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager',
          value: '2819c223-7f76-453a-919d-413861904646',
        },
        { op: 'Add', path: 'title', value: 'Manager' },
      ],
    });
    expect(single.status, JSON.stringify(single.body)).toBe(200);
    expect(single.body.userName).toBe('5b50642d-79fc-4410-9e90-4c077cdd1a59@northwind.example');
    expect(single.body.title).toBe('Manager');
    const [member] = await h.db.query<{ email: string }>('select email from members where id = $1', [id]);
    expect(member?.email).toBe('5b50642d-79fc-4410-9e90-4c077cdd1a59@northwind.example');

    // Disable User (Entra sends the boolean as a string)
    const disable = await send('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(disable.status).toBe(200);
    expect(disable.body.active).toBe(false);
    const [suspended] = await h.db.query<{ status: string }>('select status from members where id = $1', [id]);
    expect(suspended?.status).toBe('suspended');

    // A second user for the group.
    const other = await send('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'Test_User_second@northwind.example',
      active: true,
    });

    // Create Group (Entra creates without members, then PATCHes them in)
    const group = await send('POST', '/Groups', {
      schemas: [
        'urn:ietf:params:scim:schemas:core:2.0:Group',
        'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group',
      ],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'displayName',
      meta: { resourceType: 'Group' },
    });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const gid = group.body.id;
    expect(group.body).toMatchObject({ displayName: 'displayName', members: [], meta: { resourceType: 'Group' } });

    // Get Group by displayName, members excluded
    const byDisplay = await send('GET', `/Groups?excludedAttributes=members&${q('displayName eq "displayName"')}`);
    expect(byDisplay.body.totalResults).toBe(1);
    expect(byDisplay.body.Resources[0]).not.toHaveProperty('members');

    // Update Group [Non-member attributes]
    const rename = await send('PATCH', `/Groups/${gid}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' }],
    });
    expect(rename.status).toBe(204);

    // Update Group [Add Members]
    const addMembers = await send('PATCH', `/Groups/${gid}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        {
          op: 'Add',
          path: 'members',
          value: [
            { $ref: null, value: id },
            { $ref: null, value: other.body.id },
          ],
        },
      ],
    });
    expect(addMembers.status).toBe(204);
    expect((await send('GET', `/Groups/${gid}`)).body.members.map((m: Json) => m.value).sort()).toEqual(
      [id, other.body.id].sort(),
    );

    // Update Group [Remove Members]
    const removeMembers = await send('PATCH', `/Groups/${gid}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: id }] }],
    });
    expect(removeMembers.status).toBe(204);
    const after = await send('GET', `/Groups/${gid}`);
    expect(after.body.displayName).toBe('1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName');
    expect(after.body.members.map((m: Json) => m.value)).toEqual([other.body.id]);

    // Delete Group, Delete User
    expect((await send('DELETE', `/Groups/${gid}`)).status).toBe(204);
    expect((await send('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await send('GET', `/Users/${id}`)).status).toBe(404);
  });

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
    const [restored] = await h.db.query<{ status: string }>('select status from members where id = $1', [id]);
    expect(restored?.status).toBe('active');

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
