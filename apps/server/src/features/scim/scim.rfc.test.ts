import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

/*
 * Where RFC 7643 / RFC 7644 say MUST or SHALL (and the SHOULDs Entra ID and Okta rely on), over
 * HTTP against the real server: Schema resources, noTarget, filters on booleans, SCIM errors for
 * every answer under /scim/v2, WWW-Authenticate, If-None-Match, the read-only `groups` of a User;
 * and input that must never give a 500 (decoded NULs in filters, paging at its limits).
 */
let h: Harness;
let token = '';
let connectorId = '';
beforeAll(async () => {
  h = await startHarness();
  const admin = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
  const created = await h.post<{ token: string; connector: { id: string } }>(
    '/api/v1/team/scim/connector/create/',
    { idp: 'okta', name: 'RFC' },
    admin,
  );
  token = created.body.token;
  connectorId = created.body.connector.id;
});
afterAll(() => h?.close());

// biome-ignore lint/suspicious/noExplicitAny: SCIM replies are read loosely, as an identity provider reads them
type Json = Record<string, any>;
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A request with the path exactly as given (not normalised by URL parsing), as a client may send it. */
async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${h.url}/scim/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: (text ? JSON.parse(text) : {}) as Json };
}
const filter = (f: string) => `filter=${encodeURIComponent(f)}`;
const user = (userName: string, extra: Json = {}) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  ...extra,
});

/** A SCIM error as RFC 7644 §3.12 shapes it. */
function expectScimError(res: Awaited<ReturnType<typeof send>>, status: number, scimType?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  expect(res.body).toMatchObject({ schemas: [ERROR], status: String(status), ...(scimType ? { scimType } : {}) });
  expect(res.body.detail).toEqual(expect.any(String));
}

describe('RFC 7643 §7: schema resources', () => {
  test('/Schemas and /Schemas/{urn} carry the Schema schema', async () => {
    const list = await send('GET', '/Schemas');
    expect(list.body.Resources).toHaveLength(3);
    for (const schema of list.body.Resources) {
      expect(schema.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:Schema']);
      const one = await send('GET', `/Schemas/${schema.id}`);
      expect(one.status).toBe(200);
      expect(one.body.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:Schema']);
    }
    const core = list.body.Resources.find((s: Json) => s.id === 'urn:ietf:params:scim:schemas:core:2.0:User');
    expect(core.attributes.find((a: Json) => a.name === 'userName')).toMatchObject({ caseExact: false, uniqueness: 'server' });
    const groups = core.attributes.find((a: Json) => a.name === 'groups');
    expect(groups).toMatchObject({ multiValued: true, mutability: 'readOnly' });
    expect(groups.subAttributes.map((a: Json) => a.name)).toEqual(['value', '$ref', 'display', 'type']);
  });
});

describe('RFC 7644 §3.5.2.3: a replace whose value filter matches nothing', () => {
  test('answers 400 noTarget and changes nothing; add still creates the value', async () => {
    const created = await send(
      'POST',
      '/Users',
      user('no.target@northwind.example', { emails: [{ type: 'work', value: 'no.target@northwind.example', primary: true }] }),
    );
    expect(created.status).toBe(201);
    const id = created.body.id;
    const replace = await send('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'emails[type eq "home"].value', value: 'home@northwind.example' }],
    });
    expectScimError(replace, 400, 'noTarget');
    expect((await send('GET', `/Users/${id}`)).body.emails).toEqual(created.body.emails);
    // A sub-attribute of every value (no filter) is replaced on each of them.
    const everyValue = await send('PATCH', `/Users/${id}`, {
      Operations: [{ op: 'replace', path: 'emails.display', value: 'Work' }],
    });
    expect(everyValue.body.emails).toEqual([
      { type: 'work', value: 'no.target@northwind.example', primary: true, display: 'Work' },
    ]);
    const add = await send('PATCH', `/Users/${id}`, {
      Operations: [{ op: 'add', path: 'emails[type eq "home"].value', value: 'home@northwind.example' }],
    });
    expect(add.status, add.text).toBe(200);
    expect(add.body.emails).toContainEqual({ type: 'home', value: 'home@northwind.example' });
  });
});

describe('RFC 7644 §3.4.2.2: gt, ge, lt, le on a boolean', () => {
  test.each([
    'active gt true',
    'active ge false',
    'active lt "x"',
    'emails[primary le true]',
    'emails.primary gt false',
    'emails[type eq "work" and primary lt true]',
  ])('%s → 400 invalidFilter', async (text) => {
    expectScimError(await send('GET', `/Users?${filter(text)}`), 400, 'invalidFilter');
  });
});

describe('every answer under /scim/v2 is a SCIM error', () => {
  test('a malformed percent-escape in the path: 400, after the token check, logged', async () => {
    for (const [method, path] of [
      ['GET', '/Users/%ZZ'],
      ['PATCH', '/Groups/%E0%A4%A'],
      ['DELETE', '/Users/%'],
    ] as const) {
      expectScimError(await send(method, path, method === 'PATCH' ? { Operations: [] } : undefined), 400);
    }
    const anonymous = await send('GET', '/Users/%ZZ', undefined, { authorization: '' });
    expectScimError(anonymous, 401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="Latchkey SCIM"');
  });

  test('an id longer than Fastify takes in a path parameter: 404', async () => {
    for (const [method, path] of [
      ['GET', `/Users/${'a'.repeat(101)}`],
      ['PUT', `/Users/${'0'.repeat(500)}`],
      ['DELETE', `/Groups/${'g'.repeat(2000)}`],
      ['GET', `/Schemas/urn:${'x'.repeat(300)}`],
    ] as const) {
      expectScimError(await send(method, path, method === 'PUT' ? user('x@northwind.example') : undefined), 404);
    }
  });

  test("outside /scim/v2 the server answers such paths as before (Fastify's own)", async () => {
    const res = await fetch(`${h.url}/api/v1/team/scim/%ZZ`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'FST_ERR_BAD_URL', statusCode: 400 });
  });
});

describe('RFC 6750 §3: WWW-Authenticate on 401', () => {
  test('without a token: the scheme; with a bad one: invalid_token', async () => {
    const none = await send('GET', '/Users', undefined, { authorization: '' });
    expectScimError(none, 401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="Latchkey SCIM"');
    const bad = await send('GET', '/Groups', undefined, { authorization: 'Bearer lkscim_not-a-real-token' });
    expectScimError(bad, 401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer realm="Latchkey SCIM", error="invalid_token"');
  });
});

describe('RFC 7644 §3.14: ETags', () => {
  test('If-None-Match with the current ETag answers 304 without a body; a change gives 200 and a new ETag', async () => {
    expect((await send('GET', '/ServiceProviderConfig')).body.etag).toEqual({ supported: true });
    const created = await send('POST', '/Users', user('etag.user@northwind.example'));
    const id = created.body.id;
    const tag = created.headers.get('etag') as string;
    expect(tag).toBe(created.body.meta.version);
    const same = await send('GET', `/Users/${id}`, undefined, { 'if-none-match': tag });
    expect(same.status).toBe(304);
    expect(same.text).toBe('');
    expect(same.headers.get('etag')).toBe(tag);
    // Weak comparison; a list of tags; any.
    expect((await send('GET', `/Users/${id}`, undefined, { 'if-none-match': `"x", ${tag.replace(/^W\//, '')}` })).status).toBe(
      304,
    );
    expect((await send('GET', `/Users/${id}`, undefined, { 'if-none-match': '*' })).status).toBe(304);
    expect((await send('GET', `/Users/${id}`, undefined, { 'if-none-match': 'W/"999"' })).status).toBe(200);
    await send('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', path: 'displayName', value: 'Changed' }] });
    const changed = await send('GET', `/Users/${id}`, undefined, { 'if-none-match': tag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);

    const group = await send('POST', '/Groups', { displayName: 'ETag group' });
    const groupTag = group.headers.get('etag') as string;
    expect((await send('GET', `/Groups/${group.body.id}`, undefined, { 'if-none-match': groupTag })).status).toBe(304);
    // Only reads: a write with If-None-Match is not turned into a 304.
    const put = await send('PUT', `/Groups/${group.body.id}`, { displayName: 'ETag group' }, { 'if-none-match': groupTag });
    expect(put.status).toBe(200);
  });
});

describe('RFC 7643 §4.1.2: the read-only groups of a User', () => {
  test('returned on reads with value, $ref, display and type; moves the ETag; ignored on POST and PUT, refused on PATCH', async () => {
    const created = await send(
      'POST',
      '/Users',
      // A client's groups on create are not taken (readOnly: "SHALL be ignored").
      user('grouped.user@northwind.example', { groups: [{ value: '00000000-0000-4000-8000-000000000000' }] }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).not.toHaveProperty('groups');
    const id = created.body.id;
    const group = await send('POST', '/Groups', { displayName: 'Pilots', members: [{ value: id }] });
    const read = await send('GET', `/Users/${id}`, undefined, { 'if-none-match': created.body.meta.version });
    // The membership changed the User: its ETag moved.
    expect(read.status).toBe(200);
    expect(read.body.groups).toEqual([
      { value: group.body.id, $ref: `${h.url}/scim/v2/Groups/${group.body.id}`, display: 'Pilots', type: 'direct' },
    ]);
    const listed = await send('GET', `/Users?${filter(`groups.value eq "${group.body.id}"`)}`);
    expect(listed.body.Resources.map((r: Json) => r.id)).toEqual([id]);
    expect(listed.body.Resources[0].groups).toEqual(read.body.groups);
    expect((await send('GET', `/Users/${id}?excludedAttributes=groups`)).body).not.toHaveProperty('groups');
    // A group renamed shows in its members' groups.
    await send('PATCH', `/Groups/${group.body.id}`, { Operations: [{ op: 'replace', path: 'displayName', value: 'Crew' }] });
    const renamed = await send('GET', `/Users/${id}`, undefined, { 'if-none-match': read.body.meta.version });
    expect(renamed.status).toBe(200);
    expect(renamed.body.groups[0].display).toBe('Crew');

    for (const op of [
      { op: 'add', path: 'groups', value: [{ value: group.body.id }] },
      { op: 'remove', path: 'groups' },
      { op: 'replace', value: { groups: [] } },
    ]) {
      expectScimError(await send('PATCH', `/Users/${id}`, { Operations: [op] }), 400, 'mutability');
    }
    const put = await send('PUT', `/Users/${id}`, user('grouped.user@northwind.example', { groups: [] }));
    expect(put.status, put.text).toBe(200);
    expect(put.body.groups).toEqual(renamed.body.groups);
  });
});

describe('no input gives a 500', () => {
  test.each([
    ['Users', 'userName eq "\\u0000"'],
    ['Users', 'externalId eq "\\u0000"'],
    ['Users', 'emails[type eq "work" and value eq "a\\u0000"]'],
    ['Users', 'userName eq "\\udc00"'],
    ['Groups', 'displayName eq "\\u0000"'],
    ['Groups', 'externalId sw "\\u0000"'],
  ])("%s?filter=%s: a NUL decoded from a JSON escape is SCIM's 400 invalidFilter", async (resource, text) => {
    expectScimError(await send('GET', `/${resource}?${filter(text)}`), 400, 'invalidFilter');
  });

  test('startIndex and count at their limits: past the last result is an empty page (RFC 7644 §3.4.2.4)', async () => {
    const all = await send('GET', '/Users?count=0');
    const total = all.body.totalResults as number;
    expect(total).toBeGreaterThan(0);
    for (const query of [
      'startIndex=9223372036854775807',
      'startIndex=9223372036854775808&count=10',
      `startIndex=${'9'.repeat(400)}`,
      `startIndex=9223372036854775807&${filter('userName sw "a" or userName sw "e"')}`,
      // Not a column: filtered in memory.
      `startIndex=9223372036854775807&${filter('name.givenName pr or displayName pr or userName pr')}`,
      'startIndex=9223372036854775807&sortBy=displayName',
    ]) {
      const res = await send('GET', `/Users?${query}`);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(res.body).toMatchObject({ itemsPerPage: 0, Resources: [] });
      expect(res.body.totalResults).toBeGreaterThan(0);
    }
    const huge = await send('GET', '/Users?count=9223372036854775807&startIndex=-9223372036854775808');
    expect(huge.body).toMatchObject({ startIndex: 1, totalResults: total, itemsPerPage: Math.min(total, 1000) });
    const groups = await send('GET', '/Groups?startIndex=9223372036854775807&count=9223372036854775807');
    expect(groups.status, groups.text).toBe(200);
    expect(groups.body.Resources).toEqual([]);
  });

  test('a NUL in a userName, in emails or in a group name is refused as input, not stored', async () => {
    for (const [path, body] of [
      ['/Users', user('nul\u0000@northwind.example')],
      ['/Users', user('Nul_User', { emails: [{ type: 'work', value: 'nul@northwind.example', display: '\u0000' }] })],
      ['/Groups', { displayName: 'nul\u0000' }],
    ] as const) {
      const res = await send('POST', path, body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.schemas).toEqual([ERROR]);
    }
  });
});

test("requests refused before routing are in the connector's request log", async () => {
  const read = () =>
    h.db.query<{ method: string; path: string; status: number }>(
      `select method, path, status from scim_requests where connector_id = $1 and status in (400, 404) order by id`,
      [connectorId],
    );
  // The log is written in batches (every 200 ms).
  let logged = await read();
  for (let i = 0; i < 50 && !logged.some((l) => l.path === `/scim/v2/Users/${'a'.repeat(101)}`); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    logged = await read();
  }
  expect(logged).toContainEqual({ method: 'GET', path: '/scim/v2/Users/%ZZ', status: 400 });
  expect(logged).toContainEqual({ method: 'GET', path: `/scim/v2/Users/${'a'.repeat(101)}`, status: 404 });
});
