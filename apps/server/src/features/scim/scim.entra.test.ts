import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

/*
 * Microsoft Entra ID's provisioning client, replaying the requests its documentation shows, as
 * shown: Microsoft Learn, "Tutorial: Develop and plan provisioning for a SCIM endpoint in Microsoft
 * Entra ID", section "SCIM protocol requests and responses"
 * (https://learn.microsoft.com/en-us/entra/identity/app-provisioning/use-scim-to-provision-users-and-groups,
 * ms.date 03/04/2025; source: github.com/MicrosoftDocs/entra-docs,
 * docs/identity/app-provisioning/use-scim-to-provision-users-and-groups.md at 03cc7794b575).
 * Bodies, filters and query strings are the document's; only the ids are the ones this server gave
 * (the document's are its own server's). Each answer is checked for what the document's answer
 * holds and its general rules require ("Understand the Microsoft Entra SCIM implementation"): the
 * status, `application/scim+json`, `id` on every resource, values returned as they were sent, a
 * ListResponse for every query, 204 for group PATCH. Not checked: what the document's sample server
 * derives on its own (it rewrites `name.formatted` after a familyName change; values are kept as
 * sent here, as the same document's rules ask), nor its `itemsPerPage` of 20.
 */
let h: Harness;
let token = '';
beforeAll(async () => {
  h = await startHarness();
  const admin = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
  const created = await h.post<{ token: string }>('/api/v1/team/scim/connector/create/', { idp: 'entra', name: 'Entra' }, admin);
  token = created.body.token;
});
afterAll(() => h?.close());

// biome-ignore lint/suspicious/noExplicitAny: SCIM replies are read loosely, as an identity provider reads them
type Json = Record<string, any>;
const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const CORE_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** One request as Entra sends it: the path and query as the document writes them, percent-encoded on the wire. */
async function entra(method: string, pathAndQuery: string, body?: unknown) {
  const res = await fetch(`${h.url}/scim/v2${encodeURI(pathAndQuery)}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/scim+json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  // "The header for all the responses should be of content-Type: application/scim+json".
  if (text) expect(res.headers.get('content-type'), `${method} ${pathAndQuery}`).toMatch(/^application\/scim\+json/);
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
}

describe('Entra ID, the documented requests as sent', () => {
  test('users: create, get, query, update multi- and single-valued, disable; groups: create, get, query, update, members; delete; schemas', async () => {
    // Get User by query - Zero results
    const none = await entra('GET', '/Users?filter=userName eq "non-existent user"');
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ schemas: [LIST], totalResults: 0, Resources: [], startIndex: 1 });

    // Create User: userName is the user principal name, not an address; the address is in emails.
    const create = await entra('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'Test_User_00aa00aa-bb11-cc22-dd33-44ee44ee44ee',
      active: true,
      emails: [
        {
          primary: true,
          type: 'work',
          value: 'Test_User_11bb11bb-cc22-dd33-ee44-55ff55ff55ff@testuser.com',
        },
      ],
      meta: {
        resourceType: 'User',
      },
      name: {
        formatted: 'givenName familyName',
        familyName: 'familyName',
        givenName: 'givenName',
      },
      roles: [],
    });
    expect(create.status, JSON.stringify(create.body)).toBe(201);
    const id = create.body.id as string;
    expect(id).toEqual(expect.any(String));
    const created = {
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'Test_User_00aa00aa-bb11-cc22-dd33-44ee44ee44ee',
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      active: true,
      emails: [{ value: 'Test_User_11bb11bb-cc22-dd33-ee44-55ff55ff55ff@testuser.com', type: 'work', primary: true }],
    };
    expect(create.body).toMatchObject({
      ...created,
      meta: { resourceType: 'User', created: expect.any(String), lastModified: expect.any(String) },
    });
    expect(create.body.schemas).toContain(CORE_USER);
    // The member is invited at the work address.
    const [member] = await h.db.query<{ email: string; status: string }>('select email, status from members where id = $1', [id]);
    expect(member).toEqual({ email: 'test_user_11bb11bb-cc22-dd33-ee44-55ff55ff55ff@testuser.com', status: 'invited' });

    // Get User
    const got = await entra('GET', `/Users/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, ...created });
    // Get User, not found ("The detail isn't required, only status.")
    const missing = await entra('GET', '/Users/5171a35d82074e068ce2');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404' });

    // Get User by query
    const byName = await entra('GET', '/Users?filter=userName eq "Test_User_00aa00aa-bb11-cc22-dd33-44ee44ee44ee"');
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({ schemas: [LIST], totalResults: 1, startIndex: 1 });
    expect(byName.body.Resources).toHaveLength(1);
    expect(byName.body.Resources[0]).toMatchObject({ id, ...created });
    // "…a GET to /Users with a filter must allow for both userName eq … and emails[type eq "work"].value eq … queries."
    const byWork = await entra(
      'GET',
      '/Users?filter=emails[type eq "work"].value eq "Test_User_11bb11bb-cc22-dd33-ee44-55ff55ff55ff@testuser.com"',
    );
    expect(byWork.status).toBe(200);
    expect(byWork.body.Resources.map((r: Json) => r.id)).toEqual([id]);

    // Update User [Multi-valued properties]
    const multi = await entra('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        {
          op: 'Replace',
          path: 'emails[type eq "work"].value',
          value: 'updatedEmail@microsoft.com',
        },
        {
          op: 'Replace',
          path: 'name.familyName',
          value: 'updatedFamilyName',
        },
      ],
    });
    expect(multi.status, JSON.stringify(multi.body)).toBe(200);
    expect(multi.body).toMatchObject({
      id,
      userName: 'Test_User_00aa00aa-bb11-cc22-dd33-44ee44ee44ee',
      name: { familyName: 'updatedFamilyName', givenName: 'givenName' },
      active: true,
      emails: [{ value: 'updatedEmail@microsoft.com', type: 'work', primary: true }],
    });
    const [moved] = await h.db.query<{ email: string }>('select email from members where id = $1', [id]);
    expect(moved?.email).toBe('updatedemail@microsoft.com');

    // Update User [Single-valued properties]
    const single = await entra('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        {
          op: 'Replace',
          path: 'userName',
          value: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com',
        },
      ],
    });
    expect(single.status, JSON.stringify(single.body)).toBe(200);
    expect(single.body).toMatchObject({
      id,
      userName: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com',
      active: true,
      emails: [{ value: 'updatedEmail@microsoft.com', type: 'work', primary: true }],
    });

    // Disable User
    const disable = await entra('PATCH', `/Users/${id}`, {
      Operations: [
        {
          op: 'Replace',
          path: 'active',
          value: false,
        },
      ],
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    });
    expect(disable.status, JSON.stringify(disable.body)).toBe(200);
    expect(disable.body).toMatchObject({ id, userName: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com', active: false });
    // "The user object should be returned in a request whether or not the user is active."
    expect((await entra('GET', `/Users/${id}`)).body.active).toBe(false);

    // Create Group ("Groups are created with an empty members list.")
    const group = await entra('POST', '/Groups', {
      schemas: [
        'urn:ietf:params:scim:schemas:core:2.0:Group',
        'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group',
      ],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'displayName',
      meta: {
        resourceType: 'Group',
      },
    });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const gid = group.body.id as string;
    expect(group.body).toMatchObject({
      schemas: [CORE_GROUP],
      id: expect.any(String),
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      meta: { resourceType: 'Group', created: expect.any(String), lastModified: expect.any(String) },
      displayName: 'displayName',
      members: [],
    });

    // Get Group
    const getGroup = await entra('GET', `/Groups/${gid}?excludedAttributes=members`);
    expect(getGroup.status).toBe(200);
    expect(getGroup.body).toMatchObject({
      schemas: [CORE_GROUP],
      id: gid,
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'displayName',
    });
    expect(getGroup.body).not.toHaveProperty('members');

    // Get Group by displayName
    const byDisplay = await entra('GET', '/Groups?excludedAttributes=members&filter=displayName eq "displayName"');
    expect(byDisplay.status).toBe(200);
    expect(byDisplay.body).toMatchObject({ schemas: [LIST], totalResults: 1, startIndex: 1 });
    expect(byDisplay.body.Resources[0]).toMatchObject({ schemas: [CORE_GROUP], id: gid, displayName: 'displayName' });
    expect(byDisplay.body.Resources[0]).not.toHaveProperty('members');

    // Update Group [Non-member attributes]
    const rename = await entra('PATCH', `/Groups/${gid}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        {
          op: 'Replace',
          path: 'displayName',
          value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName',
        },
      ],
    });
    expect(rename.status, JSON.stringify(rename.body)).toBe(204);

    // Update Group [Add Members]
    const add = await entra('PATCH', `/Groups/${gid}`, {
      schemas: [PATCH_OP],
      Operations: [
        {
          op: 'Add',
          path: 'members',
          value: [
            {
              $ref: null,
              value: id,
            },
          ],
        },
      ],
    });
    expect(add.status, JSON.stringify(add.body)).toBe(204);
    const withMember = await entra('GET', `/Groups/${gid}`);
    expect(withMember.body.displayName).toBe('1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName');
    expect(withMember.body.members.map((m: Json) => m.value)).toEqual([id]);

    // Update Group [Remove Members]
    const remove = await entra('PATCH', `/Groups/${gid}`, {
      schemas: [PATCH_OP],
      Operations: [
        {
          op: 'Remove',
          path: 'members',
          value: [
            {
              $ref: null,
              value: id,
            },
          ],
        },
      ],
    });
    expect(remove.status, JSON.stringify(remove.body)).toBe(204);
    expect((await entra('GET', `/Groups/${gid}`)).body.members).toEqual([]);

    // Delete Group, Delete User
    expect((await entra('DELETE', `/Groups/${gid}`)).status).toBe(204);
    expect((await entra('GET', `/Groups/${gid}`)).status).toBe(404);
    expect((await entra('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await entra('GET', `/Users/${id}`)).status).toBe(404);

    // Discover schema: a ListResponse of Schema resources.
    const schemas = await entra('GET', '/Schemas');
    expect(schemas.status).toBe(200);
    expect(schemas.body).toMatchObject({ schemas: [LIST], totalResults: 3, startIndex: 1 });
    for (const schema of schemas.body.Resources) {
      expect(schema).toMatchObject({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
        id: expect.any(String),
        name: expect.any(String),
        attributes: expect.any(Array),
        meta: { resourceType: 'Schema', location: expect.stringContaining(`/Schemas/${schema.id}`) },
      });
    }
    expect(schemas.body.Resources.map((s: Json) => s.id).sort()).toEqual([
      'urn:ietf:params:scim:schemas:core:2.0:Group',
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    ]);
  });

  test("the mappings the document's schema tables list: work mail, manager, jobTitle", async () => {
    // "Design your user and group schema": mail → emails[type eq "work"].value, manager → the
    // enterprise extension's manager, jobTitle → title; userName is the user principal name.
    const create = await entra('POST', '/Users', {
      schemas: [CORE_USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      userName: 'bjensen@testuser.com',
      externalId: 'bjensen',
      name: { familyName: 'Jensen', givenName: 'Barbara' },
      emails: [{ type: 'work', value: 'Barbara.Jensen@Mail.testuser.com' }],
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { manager: '123456' },
    });
    expect(create.status, JSON.stringify(create.body)).toBe(201);
    const [member] = await h.db.query<{ email: string }>('select email from members where id = $1', [create.body.id]);
    // Not primary, but of type work: the work address is the member's, not the userName.
    expect(member?.email).toBe('barbara.jensen@mail.testuser.com');
    const patched = await entra('PATCH', `/Users/${create.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager', value: '2819c223' },
        { op: 'Add', path: 'title', value: 'Manager' },
      ],
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({
      userName: 'bjensen@testuser.com',
      title: 'Manager',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { manager: '2819c223' },
    });
  });
});
