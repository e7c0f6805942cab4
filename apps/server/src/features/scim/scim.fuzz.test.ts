import {
  HEAVY_BODIES,
  HOSTILE_STRINGS,
  LIMIT_NUMBER_LITERALS,
  limitQueries,
  NUMBER_STRINGS,
  RAW_BODIES,
  RAW_QUERIES,
} from '@latchkey/runtime/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { DEMO_ADMINS } from '../demo/index.ts';

/** FUZZ_RUNS=2000 for a longer hunt. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

let h: Harness;
let token = '';
const ids: { user: string; group: string } = { user: '', group: '' };
beforeAll(async () => {
  h = await startHarness({ rateLimitPerMinute: 1_000_000 });
  const admin = (await h.signIn(DEMO_ADMINS.superAdmin)).token.access;
  token = (await h.post<{ token: string }>('/api/v1/team/scim/connector/create/', { idp: 'generic', name: 'Fuzz' }, admin)).body
    .token;
  const user = await fetch(`${h.url}/scim/v2/Users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
    body: JSON.stringify({ userName: 'fuzz.target@northwind.example' }),
  });
  ids.user = ((await user.json()) as { id: string }).id;
  const group = await fetch(`${h.url}/scim/v2/Groups`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
    body: JSON.stringify({ displayName: 'Fuzz target', members: [{ value: ids.user }] }),
  });
  ids.group = ((await group.json()) as { id: string }).id;
});
afterAll(() => h?.close());

const ROUTES: [string, string][] = [
  ['GET', '/Users'],
  ['POST', '/Users'],
  ['GET', '/Users/:user'],
  ['PUT', '/Users/:user'],
  ['PATCH', '/Users/:user'],
  ['DELETE', '/Users/:user'],
  ['GET', '/Groups'],
  ['POST', '/Groups'],
  ['GET', '/Groups/:group'],
  ['PUT', '/Groups/:group'],
  ['PATCH', '/Groups/:group'],
  ['DELETE', '/Groups/:group'],
  ['GET', '/ServiceProviderConfig'],
  ['GET', '/Schemas'],
  ['GET', '/Schemas/:any'],
  ['GET', '/ResourceTypes'],
  ['GET', '/ResourceTypes/:any'],
];

const hostile = fc.constantFrom(...HOSTILE_STRINGS);
const attrName = fc.constantFrom(
  'userName',
  'active',
  'emails',
  'name',
  'name.givenName',
  'displayName',
  'members',
  'externalId',
  'id',
  'meta',
  'schemas',
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager',
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  'emails[type eq "work"].value',
  'members[value eq "x"]',
  'members[value eq',
  '$ref',
);
const leaf = fc.oneof(hostile, fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('True', 'False', null, true, false, 0, -1, 1e308));
const value = fc.oneof(
  leaf,
  fc.array(fc.record({ value: fc.oneof(hostile, fc.constant(ids.user), fc.uuid()), $ref: fc.constantFrom(null, 'x') }), {
    maxLength: 4,
  }),
  fc.dictionary(attrName, leaf, { maxKeys: 4 }),
);
const patchBody = fc.record(
  {
    schemas: fc.oneof(fc.constant(['urn:ietf:params:scim:api:messages:2.0:PatchOp']), fc.constant(null), hostile),
    Operations: fc.oneof(
      fc.array(
        fc.record(
          {
            op: fc.oneof(fc.constantFrom('add', 'Add', 'replace', 'Replace', 'remove', 'REMOVE', 'move'), hostile),
            path: fc.oneof(attrName, hostile),
            value,
          },
          { requiredKeys: [] },
        ),
        { maxLength: 4 },
      ),
      leaf,
    ),
  },
  { requiredKeys: [] },
);
const resourceBody = fc.oneof(
  fc.dictionary(attrName, value, { maxKeys: 6 }),
  fc.record(
    {
      userName: fc.oneof(hostile, fc.emailAddress()),
      displayName: fc.oneof(hostile, fc.string()),
      active: leaf,
      members: value,
      schemas: leaf,
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);
const filterText = fc.oneof(
  hostile,
  fc.constantFrom(
    'userName eq "x" or or',
    'not',
    'pr',
    'and',
    'a[b[c]]',
    'emails[type eq "work"].value eq "x"',
    'not (a eq -1)',
    '(((',
    'a eq "\\x"',
    'meta.lastModified gt "2011-05-13T04:42:34Z"',
    // JSON escapes the filter decodes: a NUL or a lone surrogate only after decoding.
    'userName eq "\\u0000"',
    'externalId eq "a\\u0000b"',
    'displayName eq "\\u0000"',
    'userName eq "\\ud800"',
    'userName sw "\\udfff"',
  ),
  fc
    .tuple(
      attrName,
      fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'pr', 'xx'),
      fc.jsonValue({ maxDepth: 0 }),
    )
    .map(([a, o, v]) => `${a} ${o} ${JSON.stringify(v)}`),
);
/** Numbers at the limits of JavaScript and PostgreSQL's bigint (an OFFSET of 2^63 - 1 overflowed), as the query writes them. */
const atLimit = fc.constantFrom(...LIMIT_NUMBER_LITERALS, ...NUMBER_STRINGS, '9223372036854775808', '-9223372036854775809');
const query = fc.record(
  {
    filter: filterText,
    startIndex: fc.oneof(hostile, fc.integer().map(String), atLimit),
    count: fc.oneof(hostile, fc.integer().map(String), atLimit),
    sortBy: fc.oneof(attrName, hostile),
    sortOrder: fc.oneof(fc.constantFrom('ascending', 'descending'), hostile),
    attributes: fc.oneof(attrName, hostile),
    excludedAttributes: fc.oneof(attrName, hostile),
  },
  { requiredKeys: [] },
);

async function send(
  method: string,
  path: string,
  body: string | undefined,
  contentType = 'application/scim+json',
  extra: Record<string, string> = {},
) {
  const res = await fetch(`${h.url}/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': contentType } : {}), ...extra },
    body,
  });
  const text = await res.text();
  return { status: res.status, text };
}

test('fuzzing every SCIM route: no body, query, path or header is answered with 500', async () => {
  const failures: string[] = [];
  const statuses: Record<string, number> = {};
  const check = (label: string, r: { status: number; text: string }) => {
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    if (r.status >= 500) failures.push(`${label} → ${r.status} ${r.text.slice(0, 200)}`);
  };
  // Lone surrogates cannot be URI-encoded: their bytes go as they are, percent-escaped.
  const encode = (s: string) => {
    try {
      return encodeURIComponent(s);
    } catch {
      return [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    }
  };
  const idValue = fc.oneof(fc.constant(ids.user), fc.constant(ids.group), fc.uuid(), hostile.map(encode));

  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...ROUTES),
      idValue,
      query,
      fc.oneof(patchBody, resourceBody),
      fc.constantFrom(undefined, '*', 'W/"1"', 'W/"999"', '"x"'),
      async ([method, route], id, q, body, ifMatch) => {
        const path = route.replace(':user', id).replace(':group', id).replace(':any', id);
        const qs = Object.entries(q)
          .map(([k, v]) => `${k}=${encode(String(v))}`)
          .join('&');
        const r = await send(
          method,
          `${path}${qs ? `?${qs}` : ''}`,
          method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify(body),
          undefined,
          ifMatch ? { 'if-match': ifMatch } : {},
        );
        check(`${method} ${path}?${qs} ${JSON.stringify(body).slice(0, 300)}`, r);
      },
    ),
    { numRuns: RUNS, seed: 20261124 },
  );
  for (const [method, route] of ROUTES) {
    const path = route.replace(':user', ids.user).replace(':group', ids.group).replace(':any', 'User');
    for (const raw of RAW_BODIES)
      if (method !== 'GET') check(`${method} ${path} raw ${raw.body}`, await send(method, path, raw.body, raw.contentType));
    for (const q of RAW_QUERIES) check(`${method} ${path}${q.slice(0, 40)}`, await send(method, `${path}${q}`, undefined));
  }
  for (const heavy of HEAVY_BODIES) check(`heavy ${heavy.slice(0, 20)}`, await send('POST', '/Users', heavy));
  // The lists' query strings, one key at a time at each limit (and given twice, bracketed, empty).
  for (const list of ['/Users', '/Groups'])
    for (const q of limitQueries(['startIndex', 'count', 'filter', 'sortBy', 'sortOrder', 'attributes', 'excludedAttributes']))
      check(`GET ${list}${q.slice(0, 60)}`, await send('GET', `${list}${q}`, undefined));
  for (const list of ['/Users', '/Groups'])
    for (const filter of ['userName eq "\\u0000"', 'externalId eq "\\u0000"', 'displayName eq "\\u0000"', 'id eq "\\u0000"'])
      check(`GET ${list}?filter=${filter}`, await send('GET', `${list}?filter=${encode(filter)}`, undefined));
  // Without a token or with a wrong one: SCIM 401 everywhere.
  for (const [method, route] of ROUTES) {
    const res = await fetch(`${h.url}/scim/v2${route.replace(/:\w+/, ids.user)}`, {
      method,
      headers: { authorization: 'Bearer nope' },
    });
    expect(res.status, `${method} ${route}`).toBe(401);
  }
  expect(failures).toEqual([]);
  // The fuzzer got past authentication and validation, not only errors.
  expect((statuses[200] ?? 0) + (statuses[201] ?? 0) + (statuses[204] ?? 0), JSON.stringify(statuses)).toBeGreaterThan(RUNS / 10);
}, 300_000);
