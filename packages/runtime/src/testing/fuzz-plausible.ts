import type { Endpoint } from '@latchkey/contracts';
import fc from 'fast-check';
import { z } from 'zod';

/** The part of a JSON schema the generators read (zod's JSON schema of a call's input). */
export type Schema = {
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

/** An email field: drawing text for its pattern (Unicode classes) is slow, and these are better. */
export const isEmail = (schema: Schema) => schema.format === 'email' || Boolean(schema.pattern?.includes('@'));

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
