import type { Db } from '@latchkey/runtime';
import { createTestDb } from '@latchkey/runtime/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/migrations-dir.ts';
import { seedDemo } from '../demo/index.ts';
import { createScimService } from './scim.service.ts';
import { GROUP_COLUMNS, USER_COLUMNS } from './scim-columns.ts';
import type { ConnectorRow } from './scim-connectors.repository.ts';
import { InvalidFilter, matches, parseFilter } from './scim-filter.ts';
import { filterToSql } from './scim-filter-sql.ts';
import { sortResources } from './scim-list-query.ts';

/*
 * Filters in SQL against the in-memory evaluator, the oracle (itself checked against an
 * RFC reference in scim-filter.test.ts): for generated filters — every operator, and/or/not,
 * grouping, value paths, attributes with and without columns, case variants, absent values,
 * dateTimes with microseconds — the list the SCIM service answers (SQL where it can) holds exactly
 * the resources the evaluator keeps of all of them, in the order it sorts them. PGlite by default;
 * TEST_DB=postgres runs it on PostgreSQL.
 */
type Obj = Record<string, unknown>;
let db: Db;
let connector: ConnectorRow;
let scim: ReturnType<typeof createScimService>;

const EMAILS = ['anna.berg@example.com', 'ANNA@x.io', 'bo@example.com', 'zoë@example.org', 'carl+ä@example.com', 'dan@ex.com'];
const NAMES = ['Anna Berg', 'anna', 'Bo', 'Zoë', 'ÄRGER', '', 'Dan'];
const EXTERNAL = [null, '', 'Ext-1', 'ext-1', 'EXT-2', 'x'];
// userNames an identity provider sent apart from the email (Entra's UPN), kept as sent.
const USER_NAMES = [null, 'Anna_Berg', null, 'ZOË.upn', 'bo', null, 'x'];
const DATES = ['2024-01-01T00:00:00.123456Z', '2024-01-01T00:00:00.123Z', '2023-06-30T23:59:59.999999Z', '2025-02-03T04:05:06Z'];

beforeAll(async () => {
  db = await createTestDb(MIGRATIONS_DIR);
  await seedDemo(db, {});
  const [team] = await db.query<{ id: string }>(`select id from teams where slug = 'northwind'`);
  const teamId = team?.id as string;
  // Demo members first; then members and groups whose attributes make filters hit and miss.
  for (let i = 0; i < 36; i++) {
    const local = (EMAILS[i % EMAILS.length] as string).toLowerCase().replace('@', `.${i}@`);
    const attrs: Obj = {};
    if (i % 3 === 0) attrs.displayName = NAMES[(i + 1) % NAMES.length];
    if (i % 4 === 0) attrs.name = { givenName: NAMES[i % NAMES.length], familyName: 'Berg' };
    if (i % 5 === 0) attrs.emails = [{ value: local, type: i % 2 ? 'work' : 'home', primary: true }];
    if (i % 7 === 1)
      attrs.emails = [
        { value: `Other.${i}@Example.com`, type: 'work' },
        { value: local.toUpperCase(), type: 'home' },
      ];
    const userName = USER_NAMES[i % USER_NAMES.length];
    await db.query(
      `insert into members (team_id, email, name, status, scim_external_id, scim_attributes, onboarded_at, updated_at, scim_user_name)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        teamId,
        local,
        NAMES[i % NAMES.length],
        ['active', 'invited', 'suspended'][i % 3],
        EXTERNAL[i % EXTERNAL.length],
        JSON.stringify(attrs),
        DATES[i % DATES.length],
        DATES[(i + 1) % DATES.length],
        userName ? `${userName}${i}` : null,
      ],
    );
  }
  for (let i = 0; i < 14; i++) {
    await db.query(`insert into groups (team_id, name, scim_external_id, created_at, updated_at) values ($1, $2, $3, $4, $5)`, [
      teamId,
      `${NAMES[i % NAMES.length] || 'Team'} ${i % 2 ? 'Sales' : 'ops'} ${i}`,
      EXTERNAL[i % EXTERNAL.length],
      DATES[i % DATES.length],
      DATES[(i + 2) % DATES.length],
    ]);
  }
  connector = { id: '00000000-0000-0000-0000-000000000000', team_id: teamId, name: 'Test' } as ConnectorRow;
  scim = createScimService(db, { send: async () => {}, sendMany: async () => {} }, () => 'https://console.example/scim/v2');
}, 120_000);
afterAll(() => db?.close());

const STRINGS = [
  'anna',
  'ANNA',
  'Anna Berg',
  'berg',
  '@example.com',
  '.COM',
  'zoë',
  'ZOË',
  'ärger',
  'Ext-1',
  'ext-1',
  'x',
  '',
  'sales',
  'Sales',
  'ops 2',
  '2024-01-01T00:00:00.123Z',
  '2024-01-01T00:00:00Z',
  '2024-01-01',
  '2023-06-30T23:59:59.999Z',
  '2025',
  '2024-01-01t00',
  'not a date',
  '00000000',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00.000Z',
  'anna_berg1',
  'ANNA_',
  'zoë.UPN',
  'other.8@example.com',
  'anna.berg.0@example.com',
];
const strings = fc.constantFrom(...STRINGS);
const value = fc.oneof(
  { weight: 6, arbitrary: strings.map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', '42', '-1.5') },
);
const leaf = (attrs: string[]) =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(fc.constantFrom(...attrs), fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'), value)
        .map(([a, o, v]) => `${a} ${o} ${v}`),
    },
    { weight: 1, arbitrary: fc.constantFrom(...attrs).map((a) => `${a} pr`) },
  );
const filterOf = (attrs: string[], valuePaths: string[]) =>
  fc.letrec<{ f: string }>((tie) => ({
    f: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf(attrs),
      { weight: 1, arbitrary: fc.constantFrom(...valuePaths) },
      fc.tuple(tie('f'), fc.constantFrom('and', 'or'), tie('f')).map(([a, o, b]) => `(${a} ${o} ${b})`),
      fc.tuple(tie('f'), fc.constantFrom('and', 'or'), tie('f')).map(([a, o, b]) => `${a} ${o} ${b}`),
      tie('f').map((a) => `not (${a})`),
    ),
  })).f;

const USER_ATTRS = [
  'userName',
  'USERNAME',
  'id',
  'externalId',
  'active',
  'meta.created',
  'meta.lastModified',
  'urn:ietf:params:scim:schemas:core:2.0:User:userName',
  // No column: narrowed in SQL as far as possible, finished in memory.
  'displayName',
  'name.givenName',
  'emails',
  'emails.value',
];
const USER_VALUE_PATHS = [
  'emails[type eq "work"]',
  'emails[value co "ANNA" and primary eq true]',
  // Entra ID's lookup by work email.
  'emails[type eq "work"].value eq "other.8@example.com"',
  'emails[type eq "work"].value eq "ANNA.BERG.0@example.com"',
  'emails[type eq "home" or value sw "other"].value co "@EXAMPLE"',
  'emails[not (type eq "home")].value ew ".com"',
];
const GROUP_ATTRS = ['displayName', 'id', 'externalId', 'meta.created', 'meta.lastModified', 'members'];
const GROUP_VALUE_PATHS = ['members[value pr]'];

/** The filter in SQL, or undefined when the parser refuses it. */
function translates(filter: string) {
  try {
    return filterToSql(parseFilter(filter), USER_COLUMNS, []);
  } catch (error) {
    if (error instanceof InvalidFilter) return undefined;
    throw error;
  }
}

const all: Partial<Record<'Users' | 'Groups', Obj[]>> = {};
async function check(kind: 'Users' | 'Groups', filter: string, sortBy: string | undefined, descending: boolean) {
  const list = kind === 'Users' ? scim.listUsers : scim.listGroups;
  // Every resource, unfiltered (the data does not change during the tests).
  all[kind] ??= (await list(connector, { count: '1000' })).Resources as Obj[];
  let parsed: ReturnType<typeof parseFilter>;
  try {
    parsed = parseFilter(filter);
  } catch (error) {
    // Refused by the parser (gt on a boolean…): the service refuses it too, as SCIM's invalidFilter.
    if (!(error instanceof InvalidFilter)) throw error;
    await expect(list(connector, { filter })).rejects.toMatchObject({ status: 400, scimType: 'invalidFilter' });
    return { expected: [], got: [], total: 0 };
  }
  const expected = sortResources(
    (all[kind] as Obj[]).filter((r) => matches(parsed, r)),
    sortBy,
    descending ? 'descending' : 'ascending',
  ).map((r) => r.id);
  const got = await list(connector, {
    filter,
    count: '1000',
    ...(sortBy ? { sortBy, sortOrder: descending ? 'descending' : 'ascending' } : {}),
  });
  return { expected, got: (got.Resources as Obj[]).map((r) => r.id), total: got.totalResults };
}

describe('filters in SQL agree with the evaluator', () => {
  test('translation: column-only filters are exact, the others a superset; values are parameters, never SQL text', () => {
    const params: unknown[] = ['team'];
    const exact = filterToSql(
      parseFilter(`userName eq "x'; drop table members; --" or not (active eq false)`),
      USER_COLUMNS,
      params,
    );
    expect(exact.exact).toBe(true);
    expect(exact.sql).not.toContain('drop table');
    expect(params).toContain("x'; drop table members; --");
    expect(filterToSql(parseFilter('displayName co "a" and userName sw "a"'), USER_COLUMNS, []).exact).toBe(false);
    expect(filterToSql(parseFilter('not (name.givenName eq "a")'), USER_COLUMNS, []).sql).toBe('true');
    expect(filterToSql(parseFilter('displayName eq "Sales"'), GROUP_COLUMNS, []).exact).toBe(true);
    // Entra's lookup by work email narrows in SQL (the email values), and the evaluator finishes it.
    const byWork = filterToSql(parseFilter('emails[type eq "work"].value eq "a@b.example"'), USER_COLUMNS, []);
    expect(byWork.exact).toBe(false);
    expect(byWork.sql).toContain('exists');
  });

  test('every single comparison on a column, with every value, agrees (exact SQL path)', async () => {
    const values = [...STRINGS.map((v) => JSON.stringify(v)), 'true', 'false', 'null', '42'];
    const ops = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'];
    const cases: ['Users' | 'Groups', string][] = [];
    for (const [kind, attrs] of [
      ['Users', ['userName', 'id', 'externalId', 'active', 'meta.created', 'meta.lastModified']],
      ['Groups', ['displayName', 'externalId', 'meta.created']],
    ] as const) {
      for (const a of attrs) {
        cases.push([kind, `${a} pr`]);
        for (const op of ops) for (const v of values) cases.push([kind, `${a} ${op} ${v}`]);
      }
    }
    const wrong: string[] = [];
    for (const [kind, filter] of cases) {
      const { expected, got, total } = await check(kind, filter, undefined, false);
      if (JSON.stringify(got) !== JSON.stringify(expected) || total !== expected.length) wrong.push(`${kind}: ${filter}`);
    }
    expect(wrong).toEqual([]);
    expect(cases.length).toBeGreaterThan(2000);
  }, 240_000);

  test('property: Users, 0 mismatches (ids and order), exact SQL and SQL + memory paths both exercised', async () => {
    let exactRuns = 0;
    let mismatches = 0;
    await fc.assert(
      fc.asyncProperty(
        filterOf(USER_ATTRS, USER_VALUE_PATHS),
        fc.option(fc.constantFrom('userName', 'externalId', 'meta.created', 'active', 'id', 'displayName'), { nil: undefined }),
        fc.boolean(),
        async (filter, sortBy, descending) => {
          if (translates(filter)?.exact) exactRuns++;
          const { expected, got, total } = await check('Users', filter, sortBy, descending);
          if (JSON.stringify(got) !== JSON.stringify(expected) || total !== expected.length) mismatches++;
          expect({ filter, sortBy, got }).toEqual({ filter, sortBy, got: expected });
          expect(total).toBe(expected.length);
        },
      ),
      { numRuns: 250, seed: 14 },
    );
    expect(mismatches).toBe(0);
    expect(exactRuns).toBeGreaterThan(60);
  }, 240_000);

  test('property: Groups, 0 mismatches', async () => {
    await fc.assert(
      fc.asyncProperty(
        filterOf(GROUP_ATTRS, GROUP_VALUE_PATHS),
        fc.option(fc.constantFrom('displayName', 'externalId', 'meta.lastModified'), { nil: undefined }),
        fc.boolean(),
        async (filter, sortBy, descending) => {
          const { expected, got, total } = await check('Groups', filter, sortBy, descending);
          expect({ filter, sortBy, got }).toEqual({ filter, sortBy, got: expected });
          expect(total).toBe(expected.length);
        },
      ),
      { numRuns: 150, seed: 41 },
    );
  }, 240_000);

  test('paging in SQL: startIndex and count over a filtered, sorted list; past the end still counts', async () => {
    const filter = 'userName co "example" and not (active eq false)';
    const all = await scim.listUsers(connector, { filter, sortBy: 'userName', count: '1000' });
    const second = await scim.listUsers(connector, { filter, sortBy: 'userName', startIndex: '3', count: '2' });
    expect(second.totalResults).toBe(all.totalResults);
    expect((second.Resources as Obj[]).map((r) => r.id)).toEqual((all.Resources as Obj[]).slice(2, 4).map((r) => r.id));
    const past = await scim.listUsers(connector, { filter, startIndex: '9999', count: '5' });
    expect(past).toMatchObject({ totalResults: all.totalResults, itemsPerPage: 0 });
    const none = await scim.listUsers(connector, { filter, count: '0' });
    expect(none).toMatchObject({ totalResults: all.totalResults, itemsPerPage: 0 });
  });
});
