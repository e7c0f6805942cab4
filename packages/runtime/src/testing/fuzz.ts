import type { Endpoint } from '@latchkey/contracts';
import fc from 'fast-check';
import { z } from 'zod';
import { formDocumentBodies, limitNumberBodies, limitQueries, numberFields, queryKeys } from './fuzz-limits.ts';

/**
 * Bodies for every call of an OpenAPI document, for property tests that no input makes a program
 * answer 500 (security finding 7). Most are shaped like the call's input schema with hostile values
 * in its fields; the rest are wrong types, missing and extra fields, deep nesting and huge arrays.
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};

/** Text that has broken programs: NUL, lone surrogates, direction marks, SQL and JSON syntax, sizes. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'alex@northwind.example\u0000',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '\u202eevil\u202c',
  '\u200f\u200e\u2066',
  '\ufeff',
  '\uffff',
  '😀👩‍👩‍👧',
  'ﷺ',
  "' OR '1'='1",
  "'; drop table users; --",
  '"}]}',
  '\\',
  '\\u0000',
  '%00',
  '%',
  '_%',
  '$' + '{jndi:ldap://x}',
  '{{constructor.constructor}}',
  '__proto__',
  'constructor',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  'NaN',
  '-1',
  '1e309',
  '99999999999999999999999999999999',
  '0x7fffffff',
  '2026-13-45T25:61:61Z',
  '9999-12-31T23:59:59Z',
  '0000-00-00',
  '-infinity',
  'null',
  'true',
  '[]',
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]:1/',
  'https://example.invalid/',
  'alex@northwind.example',
  'northwind',
  'super_admin',
  'x'.repeat(300),
  'x'.repeat(5_000),
  'é'.repeat(70_000),
];

export const EXTREME_NUMBERS: readonly number[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5,
  1.5,
  7,
  32_767,
  32_768,
  65_536,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  Number.MAX_SAFE_INTEGER,
  1e15,
  1e21,
  1e308,
  -1e308,
  5e-324,
  1e-7,
];

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
);
const extremeNumber = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EXTREME_NUMBERS) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.integer() },
);

/** Any value of the wrong kind: null, booleans, numbers, text, small arrays and objects. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  extremeNumber,
  hostileString,
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** How many copies of `value` an array may hold: up to 20,000, and together under the 1 MiB body limit. */
const copiesUnderLimit = (value: unknown) => {
  const size = (JSON.stringify(value) ?? '').length + 1;
  return Math.max(1, Math.min(20_000, Math.floor(900_000 / size)));
};

/** A value nested `depth` levels deep in arrays and objects. */
const nested = (depth: number, inner: unknown): unknown => {
  let value = inner;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

/** An email field: drawing text for its pattern (Unicode classes) is slow, and these are better. */
const isEmail = (schema: Schema) => schema.format === 'email' || Boolean(schema.pattern?.includes('@'));

/** The most specific text the schema describes: its format, else its pattern, else letters of a fitting length. */
function plausibleText(schema: Schema, seed: number): string {
  const sample = (arbitrary: fc.Arbitrary<string>) => fc.sample(arbitrary, { seed, numRuns: 1 })[0] ?? '';
  if (isEmail(schema)) return 'alex@northwind.example';
  if (schema.format === 'uuid') return '5b0c8f5e-2d2a-4a51-9d1e-0d6f1f0a7a11';
  if (schema.format === 'date-time') return '2026-11-24T12:00:00.000Z';
  if (schema.format === 'date') return '2026-11-24';
  if (schema.pattern) {
    try {
      return sample(
        fc.stringMatching(new RegExp(schema.pattern), { size: 'xsmall' }).filter((s) => s.length <= (schema.maxLength ?? 200)),
      );
    } catch {
      // A pattern fast-check cannot invert: letters below.
    }
  }
  return 'a'.repeat(Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 8, 8)));
}

function plausibleString(schema: Schema): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [];
  if (isEmail(schema)) return fc.oneof(fc.constantFrom('alex@northwind.example', 'nobody@northwind.example'), fc.emailAddress());
  if (schema.format === 'uuid') options.push(fc.uuid());
  if (schema.format === 'date-time') options.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
  if (schema.format === 'date') options.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
  if (schema.pattern) {
    try {
      options.push(
        fc.stringMatching(new RegExp(schema.pattern), { size: 'xsmall' }).filter((s) => s.length <= (schema.maxLength ?? 200)),
      );
    } catch {
      // A pattern fast-check cannot invert: the other strings still cover the field.
    }
  }
  // A long minimum (keys, PEM) is honoured: the cap of 40 only shortens what may be shorter.
  const minLength = schema.minLength ?? 0;
  options.push(fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 40, 40)) }));
  return fc.oneof(...options);
}

/** Values shaped by `schema`, hostile where the schema leaves room, wrong now and then. */
export function valueFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedFor(schema, depth);
  return fc.oneof({ weight: 8, arbitrary: shaped }, { weight: 1, arbitrary: wrongType });
}

/** Values that get a call past its first checks in the demo data (a known admin, the demo team). */
export const PLAUSIBLE_BY_NAME: Record<string, unknown> = {
  // An admin of the demo team, but not the one whose session the signed-in caller uses: the
  // brute-force limits the fuzzing trips lock this one out, never the caller.
  email: 'adam@northwind.example',
  team_slug: 'northwind',
};

/** One value the schema accepts, as a handler would want it (every optional field present). */
export function plausibleFor(schema: Schema, seed: number, name = ''): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alternatives?.length) return plausibleFor(alternatives[0] as Schema, seed, name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'string' && typeof PLAUSIBLE_BY_NAME[name] === 'string') return PLAUSIBLE_BY_NAME[name];
  if (type === 'string') return plausibleText(schema, seed);
  if (type === 'integer') return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1));
  if (type === 'number') return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1));
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  if (type === 'array')
    return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => plausibleFor(schema.items ?? {}, seed));
  if (type === 'object') {
    const out: Record<string, unknown> = {};
    for (const [field, fieldSchema] of Object.entries(schema.properties ?? {}))
      out[field] = plausibleFor(fieldSchema, seed, field);
    return out;
  }
  return 'x';
}

/** Every text and number field of a schema, as a path of keys and array indexes. */
function leavesOf(
  schema: Schema,
  path: (string | number)[] = [],
  depth = 0,
): { path: (string | number)[]; kind: 'text' | 'number' }[] {
  if (depth > 6) return [];
  const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alternatives?.length) return leavesOf(alternatives[0] as Schema, path, depth + 1);
  if (schema.const !== undefined || schema.enum) return [{ path, kind: 'text' }];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'string') return [{ path, kind: 'text' }];
  if (type === 'number' || type === 'integer') return [{ path, kind: 'number' }];
  if (type === 'array') return leavesOf(schema.items ?? {}, [...path, 0], depth + 1);
  if (type === 'object')
    return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => leavesOf(field, [...path, name], depth + 1));
  return [];
}

/** The texts and numbers each field is tried with in a sweep, one field at a time. */
export const SWEEP_STRINGS: readonly string[] = ["' OR 1=1 --", 'é'.repeat(3_000)];
export const SWEEP_SUFFIXES: readonly string[] = ['\u0000', '\udc00', '\u202e'];
export const SWEEP_NUMBERS: readonly number[] = [-1, 2 ** 31, 1e308];

/** A plausible body with one field at a time set to each hostile value: reaches past the schema's other checks. */
export function sweepBodies(endpoint: Endpoint, seed: number): unknown[] {
  const schema = z.toJSONSchema(endpoint.input, { io: 'input', unrepresentable: 'any' }) as Schema;
  const bodies: unknown[] = [];
  // Drawn once: drawing text for some patterns takes a while.
  const plausible = plausibleFor(schema, seed);
  for (const leaf of leavesOf(schema)) {
    const variants: ((plausible: unknown) => unknown)[] =
      leaf.kind === 'text'
        ? [
            ...SWEEP_STRINGS.map((text) => () => text),
            // After a valid value, so that patterns (emails, codes) still match and the text goes further.
            ...SWEEP_SUFFIXES.map((suffix) => (plausible: unknown) => `${String(plausible)}${suffix}`),
          ]
        : SWEEP_NUMBERS.map((n) => () => n);
    for (const variant of variants) {
      const body = structuredClone(plausible) as Record<string | number, unknown>;
      let at: Record<string | number, unknown> = body;
      for (const key of leaf.path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
      const last = leaf.path.at(-1);
      if (last === undefined) bodies.push(variant(body));
      else {
        at[last] = variant(at[last]);
        bodies.push(body);
      }
    }
  }
  return bodies;
}

function shapedFor(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => valueFor(s, depth + 1)));
  if (schema.allOf?.length) return valueFor(schema.allOf[0] as Schema, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.oneof(plausibleString(schema), hostileString);
    case 'number':
    case 'integer': {
      const inRange =
        type === 'integer'
          ? fc.integer({ min: Math.max(schema.minimum ?? -1e9, -(2 ** 31)), max: Math.min(schema.maximum ?? 1e9, 2 ** 31 - 1) })
          : fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true });
      return fc.oneof(inRange, extremeNumber);
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = depth > 6 ? wrongType : valueFor(schema.items ?? {}, depth + 1);
      return fc.oneof(
        { weight: 6, arbitrary: fc.array(item, { maxLength: 5 }) },
        // Far past any sensible limit, still under the 1 MiB body limit: a large item is repeated
        // fewer times (20,000 copies of a 70,000-character text took the fuzzer itself 15 s to write).
        { weight: 1, arbitrary: item.map((v) => Array.from({ length: copiesUnderLimit(v) }, () => v)) },
      );
    }
    case 'object': {
      if (depth > 6 || !schema.properties) return fc.dictionary(hostileString, wrongType, { maxKeys: 4 });
      const required = new Set(schema.required ?? []);
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, field] of Object.entries(schema.properties)) {
        const value = valueFor(field, depth + 1);
        // Required fields go missing now and then; optional ones half the time.
        fields[name] = required.has(name)
          ? fc.oneof({ weight: 9, arbitrary: value }, { weight: 1, arbitrary: fc.constant(MISSING) })
          : fc.oneof(value, fc.constant(MISSING));
      }
      return fc
        .tuple(fc.record(fields), fc.dictionary(hostileString, wrongType, { maxKeys: 2 }), fc.nat(9))
        .map(([record, extra, roll]) => {
          const out: Record<string, unknown> = roll === 0 ? { ...extra } : {};
          for (const [k, v] of Object.entries(record)) if (v !== MISSING) out[k] = v;
          return out;
        });
    }
    default:
      return wrongType;
  }
}

const MISSING = Symbol('missing');

/** Whole request bodies for one call: mostly shaped, some wrong at the top, some deep or huge. */
export function bodiesFor(endpoint: Endpoint): fc.Arbitrary<unknown> {
  const schema = z.toJSONSchema(endpoint.input, { io: 'input', unrepresentable: 'any' }) as Schema;
  const shaped = valueFor(schema);
  return fc.oneof(
    { weight: 12, arbitrary: shaped },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    {
      weight: 1,
      arbitrary: fc.tuple(shaped, fc.nat(200)).map(([body, depth]) => ({ ...asObject(body), deep: nested(depth, 'x') })),
    },
    { weight: 1, arbitrary: fc.nat(200).map((depth) => nested(depth, '\u0000')) },
  );
}

const asObject = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };

/** Bodies no generator makes from a value: broken JSON, numbers JSON cannot hold, prototype keys. */
export const RAW_BODIES: readonly { contentType: string; body: string }[] = [
  { contentType: 'application/json', body: '' },
  { contentType: 'application/json', body: '{' },
  { contentType: 'application/json', body: 'null' },
  { contentType: 'application/json', body: '[]' },
  { contentType: 'application/json', body: '"text"' },
  { contentType: 'application/json', body: '1e999' },
  { contentType: 'application/json', body: '{"email":1e999,"team_slug":-1e999,"page":1e999,"limit":1e999}' },
  { contentType: 'application/json', body: '{"__proto__":{"admin":true}}' },
  { contentType: 'application/json', body: '{"constructor":{"prototype":{"admin":true}}}' },
  { contentType: 'application/json', body: '{"email":"\\ud800","team_slug":"\\u0000"}' },
  { contentType: 'application/x-www-form-urlencoded', body: 'email=%00&team_slug=%ED%A0%80&grant_type=refresh_token' },
  { contentType: 'text/plain', body: 'hello' },
];

/** Bodies that cost the same whichever call gets them (parsing happens before any handler): sent once. */
export const HEAVY_BODIES: readonly string[] = [
  `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  `{"a":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
  `{"a":"${'x'.repeat(2_000_000)}"}`,
];

/** Query strings for GET calls (and ignored ones on POST). */
export const RAW_QUERIES: readonly string[] = [
  '',
  '?a=%00',
  '?a=%ED%A0%80',
  '?a[b][c]=1',
  `?a=${'x'.repeat(10_000)}`,
  '?__proto__[x]=1',
];

/** A GET route outside the contracts that reads its query string (a page a browser is sent to). */
export interface FuzzQueryRoute {
  path: string;
  /** The query keys it reads. */
  keys: readonly string[];
}

export interface FuzzCaller {
  name: string;
  /** The Authorization header value, or none for an anonymous caller. */
  authorization?: () => string | undefined;
  /** The calls this caller makes (all by default): a device credential on a console call only tests the guard again. */
  calls?: (endpoint: Endpoint) => boolean;
}

export interface FuzzFailure {
  call: string;
  caller: string;
  status: number;
  body: string;
  reply: string;
}

export interface FuzzReport {
  requests: number;
  /** How many answers each status got, for a check that the signed-in callers got past the guard. */
  statuses: Record<string, number>;
  failures: FuzzFailure[];
}

const isAnswer = (status: number) => status > 0 && status < 500;

const ANSWER_WITHIN_MS = 10_000;

const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text);

/**
 * Sends every call of `endpoints` `numRuns` generated bodies per caller, then the raw bodies and
 * queries, and reports every answer of 500 or more. The seed is fixed: a failure reproduces.
 */
export async function fuzzProgram(options: {
  url: string;
  endpoints: readonly Endpoint[];
  callers: readonly FuzzCaller[];
  numRuns: number;
  seed: number;
  /** Headers for each request, e.g. a new X-Forwarded-For so per-address limits do not stop the hunt early. */
  headers?: () => Record<string, string>;
  /** GET routes outside the contracts that read a query string, sent the same query strings anonymously. */
  queryRoutes?: readonly FuzzQueryRoute[];
}): Promise<FuzzReport> {
  const report: FuzzReport = { requests: 0, statuses: {}, failures: [] };
  const send = async (endpoint: Endpoint, caller: FuzzCaller, contentType: string, body: string, query = '') => {
    const headers: Record<string, string> = { ...options.headers?.() };
    const authorization = caller.authorization?.();
    if (authorization) headers.authorization = authorization;
    if (endpoint.method === 'POST') headers['content-type'] = contentType;
    const started = Date.now();
    let response: Response;
    let reply: string;
    try {
      response = await fetch(options.url + endpoint.path + query, {
        method: endpoint.method,
        headers,
        ...(endpoint.method === 'POST' ? { body } : {}),
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
      });
      reply = await response.text();
    } catch (error) {
      // No answer in time is as bad as a 500: one request could hold a worker.
      const call = `${endpoint.method} ${endpoint.path}${query}`;
      const problem = `no answer after ${Date.now() - started} ms: ${(error as Error).message}`;
      report.failures.push({ call, caller: caller.name, status: 0, body: clip(body), reply: problem });
      return 0;
    }
    report.requests++;
    const key = `${caller.name} ${response.status}`;
    report.statuses[key] = (report.statuses[key] ?? 0) + 1;
    if (response.status >= 500) {
      report.failures.push({
        call: `${endpoint.method} ${endpoint.path}${query}`,
        caller: caller.name,
        status: response.status,
        body: clip(body),
        reply: clip(reply),
      });
    }
    return response.status;
  };

  for (const [index, endpoint] of options.endpoints.entries()) {
    // The callers in parallel: the same work, in about half the time on a machine with cores to spare.
    await Promise.all(
      options.callers
        .filter((caller) => caller.calls?.(endpoint) ?? true)
        .map(async (caller) => {
          const contentType = endpoint.encoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
          const encode = (value: unknown) =>
            endpoint.encoding === 'form'
              ? new URLSearchParams(
                  Object.entries(asObject(value)).map(([k, v]): [string, string] => [
                    k,
                    typeof v === 'string' ? v : (JSON.stringify(v) ?? ''),
                  ]),
                ).toString()
              : JSON.stringify(value);
          // fc.check rather than fc.assert: every call is tried even after one fails, and all are reported.
          await fc.check(
            fc.asyncProperty(bodiesFor(endpoint), fc.constantFrom(...RAW_QUERIES), async (value, query) => {
              const body = encode(value);
              if (endpoint.method === 'GET') return isAnswer(await send(endpoint, caller, contentType, '', query));
              return isAnswer(await send(endpoint, caller, contentType, body));
            }),
            { seed: options.seed + index, numRuns: options.numRuns, endOnFailure: true },
          );
          for (const body of sweepBodies(endpoint, options.seed)) await send(endpoint, caller, contentType, encode(body));
          for (const raw of RAW_BODIES) await send(endpoint, caller, raw.contentType, raw.body);
          if (endpoint.method === 'GET') for (const query of RAW_QUERIES) await send(endpoint, caller, contentType, '', query);
          // Past the guard only: an anonymous caller of a signed-in call is refused before its input is read.
          if (endpoint.auth === 'public' || caller.authorization)
            await sendAtLimits(endpoint, (type, body, query) => send(endpoint, caller, type, body, query));
        }),
    );
  }
  // Pages outside the contracts that read a query string: anyone may open them.
  for (const route of options.queryRoutes ?? []) {
    const endpoint = { method: 'GET', path: route.path } as Endpoint;
    const anonymous = { name: 'anonymous' };
    for (const query of [...RAW_QUERIES, ...limitQueries(route.keys)]) await send(endpoint, anonymous, '', '', query);
  }
  // Deep and oversized bodies: the parser and the body limit are the same for every call.
  const first = options.endpoints.find((e) => e.method === 'POST');
  const anyone = options.callers[0];
  if (first && anyone) {
    for (const body of HEAVY_BODIES) await send(first, anyone, 'application/json', body);
    for (const query of RAW_QUERIES) await send(first, anyone, 'application/json', '{}', query);
  }
  return report;
}

/**
 * One call at the limits: each number field as each literal at the limits, each query key it
 * reads set to them, and for a form, each text field carrying each document.
 */
async function sendAtLimits(
  endpoint: Endpoint,
  send: (contentType: string, body: string, query?: string) => Promise<number>,
): Promise<void> {
  const schema = z.toJSONSchema(endpoint.input, { io: 'input', unrepresentable: 'any' }) as Schema;
  const plausible = plausibleFor(schema, 1);
  if (endpoint.encoding === 'form') {
    for (const body of formDocumentBodies(plausible)) await send('application/x-www-form-urlencoded', body);
  } else if (endpoint.method !== 'GET') {
    for (const body of limitNumberBodies(plausible, numberFields(endpoint))) await send('application/json', body);
  }
  const keys = queryKeys(endpoint);
  if (keys.length === 0) return;
  const body = endpoint.method === 'GET' ? '' : JSON.stringify(plausible);
  for (const query of limitQueries(keys)) await send('application/json', body, query);
}
