import type { Endpoint } from '@latchkey/contracts';
import fc from 'fast-check';
import { z } from 'zod';
import { isEmail, type Schema } from './fuzz-plausible.ts';

// Hostile values for the fuzzer (fuzz.ts): shaped by a call's input schema, wrong in type, deep or huge.

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

export const asObject = (v: unknown): Record<string, unknown> =>
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
