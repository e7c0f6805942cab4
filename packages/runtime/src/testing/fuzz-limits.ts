import type { Endpoint } from '@latchkey/contracts';
import { z } from 'zod';

/**
 * Inputs at the limits, outside the JSON bodies the generators make: numbers as the text a request
 * carries (JSON cannot say -0 once stringified, nor 9223372036854775807 exactly), query strings of
 * the calls that read one, and the documents a form post carries (a SAMLResponse is base64 XML).
 */

/** Numbers at the edges of JavaScript, PostgreSQL's integers and JSON, written as a JSON body writes them. */
export const LIMIT_NUMBER_LITERALS: readonly string[] = [
  '9007199254740991',
  '9007199254740993',
  '9223372036854775807',
  '-9223372036854775808',
  '1e308',
  '-0',
  '5e-324',
  '1e-400',
];

/** Text where a number is expected: what a query string or a coercing field reads as a number, or fails to. */
export const NUMBER_STRINGS: readonly string[] = [
  'NaN',
  'Infinity',
  '-0',
  '9007199254740991',
  '9223372036854775807',
  '1e308',
  '0x10',
  ' 1',
  '',
];

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; anyOf?: JsonSchema[] };

const typeOf = (schema: JsonSchema): string | undefined => {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  return type ?? (schema.anyOf?.[0] ? typeOf(schema.anyOf[0]) : undefined);
};

/** A call's top-level input fields that are numbers (a coerced one included). */
export function numberFields(endpoint: Endpoint): string[] {
  const schema = z.toJSONSchema(endpoint.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return Object.entries(schema.properties ?? {})
    .filter(([, field]) => ['number', 'integer'].includes(typeOf(field) ?? '') || typeOf(field) === undefined)
    .map(([name]) => name);
}

/**
 * JSON bodies with one number field written as each literal at the limits: `plausible` as text,
 * the field's value replaced in the text (stringify would turn -0 into 0 and round the rest).
 */
export function limitNumberBodies(plausible: unknown, fields: readonly string[]): string[] {
  if (plausible === null || typeof plausible !== 'object' || Array.isArray(plausible)) return [];
  const bodies: string[] = [];
  const marker = '\u2063number\u2063';
  for (const field of fields) {
    const text = JSON.stringify({ ...(plausible as Record<string, unknown>), [field]: marker });
    for (const literal of LIMIT_NUMBER_LITERALS) bodies.push(text.replace(JSON.stringify(marker), literal));
    for (const value of NUMBER_STRINGS) bodies.push(text.replace(JSON.stringify(marker), JSON.stringify(value)));
  }
  return bodies;
}

/** The fields a call reads from its query string: a GET's whole input, or a POST's declared query fields. */
export function queryKeys(endpoint: Endpoint): string[] {
  if (endpoint.method === 'GET') {
    const schema = z.toJSONSchema(endpoint.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    return Object.keys(schema.properties ?? {});
  }
  return [...(endpoint.queryFields ?? [])];
}

/** Query strings that set one key at a time to a value at the limits, twice over, or as an object. */
export function limitQueries(keys: readonly string[]): string[] {
  const queries: string[] = [];
  for (const key of keys) {
    const k = encodeURIComponent(key);
    for (const value of [...LIMIT_NUMBER_LITERALS, ...NUMBER_STRINGS, '\u0000', 'x'.repeat(5_000)])
      queries.push(`?${k}=${encodeURIComponent(value)}`);
    queries.push(`?${k}=1&${k}=2`, `?${k}[]=1`, `?${k}[a]=1`, `?${k}`, `?${k}=%`, `?${k}=%ED%A0%80`);
  }
  return queries;
}

const base64 = (text: string) => Buffer.from(text).toString('base64');
const deep = (depth: number) =>
  `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</samlp:Response>`;

/**
 * What a form field may carry when the form brings a document: base64 XML nested deep enough to
 * overflow a recursive walk (a range of depths, as where the stack ends depends on the caller),
 * with a DTD, not base64 at all, wrapped in lines as identity providers send it, or binary.
 */
export const FORM_DOCUMENTS: readonly string[] = [
  ...Array.from({ length: 12 }, (_, i) => base64(deep(2_000 + i * 2_000))),
  base64('<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><r>&b;</r>'),
  base64(`<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="${'x'.repeat(100_000)}"/>`),
  base64(`<r>${'<a/>'.repeat(50_000)}</r>`),
  base64('<samlp:Response'),
  base64('<?xml version="1.0" encoding="UTF-16"?><r/>'),
  (base64(deep(12_000)).match(/.{1,76}/g) ?? []).join('\r\n'),
  '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>',
  Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x00, 0xdc]).toString('base64'),
  '====',
  '%%%',
];

/** Form bodies with one text field at a time set to each document. */
export function formDocumentBodies(plausible: unknown): string[] {
  if (plausible === null || typeof plausible !== 'object' || Array.isArray(plausible)) return [];
  const fields = Object.entries(plausible as Record<string, unknown>).filter(([, v]) => typeof v === 'string');
  const bodies: string[] = [];
  for (const [field] of fields)
    for (const document of FORM_DOCUMENTS) {
      const form = Object.fromEntries(
        Object.entries(plausible as Record<string, unknown>).map(([k, v]): [string, string] => [
          k,
          typeof v === 'string' ? v : JSON.stringify(v),
        ]),
      );
      bodies.push(new URLSearchParams({ ...form, [field]: document }).toString());
    }
  return bodies;
}
