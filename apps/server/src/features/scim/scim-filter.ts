import { isSafeText } from '@latchkey/runtime';
import type { Filter } from 'scim2-parse-filter';
import { parseFilter as parseTokens, type Token, Tokens } from 'scim2-parse-filter/lib/src/parser.js';
import { isBoolean, isCaseExact, isDateTime, splitUrn } from './scim-schema.ts';

/** A filter the client got wrong: SCIM's 400 invalidFilter. */
export class InvalidFilter extends Error {}

/**
 * Our tokenizer for scim2-parse-filter's grammar: the library's (0.2.10) refuses a negative number
 * followed by a space or ")" (`not (a eq -1)`), undoes JSON escapes in strings, and turns
 * `emails[...].value eq x` (not in RFC 7644's filter grammar) into an unrelated `and`; that form,
 * which Entra ID sends, is read as the value filter it means ({@link subAttributeToValueFilter}).
 */
const TOKEN =
  /^(?:(\s+)|("(?:[^"\\]|\\.)*")|(\]\.|[[()\]])|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?=[\s)\]]|$)|([A-Za-z$][-\w.:$]*))/;
function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let rest = text;
  while (rest.length > 0) {
    const m = TOKEN.exec(rest);
    if (!m || m[0].length === 0) throw new InvalidFilter(`Unexpected text in the filter: ${rest.slice(0, 40)}`);
    if (m[2]) out.push({ type: 'Quoted', literal: m[2] });
    else if (m[3]) out.push({ type: 'Bracket', literal: m[3] });
    else if (m[4]) out.push({ type: 'Number', literal: m[4] });
    else if (m[5]) out.push({ type: 'Word', literal: m[5] });
    rest = rest.slice(m[0].length);
  }
  out.push({ type: 'EOT', literal: '' });
  return subAttributeToValueFilter(out);
}

const COMPARE_OPS = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);
const SUB_ATTRIBUTE = /^[A-Za-z$][\w$-]*$/;

/**
 * `emails[type eq "work"].value eq "x"` (Entra ID's documented lookup; RFC 7644 allows a
 * sub-attribute after a value filter only in PATCH paths) as `emails[(type eq "work") and value eq "x"]`:
 * one element must hold both, which is what the query asks.
 */
function subAttributeToValueFilter(tokens: Token[]): Token[] {
  let at = tokens.findIndex((t) => t.type === 'Bracket' && t.literal === '].');
  while (at >= 0) {
    let open = at - 1;
    while (open >= 0 && !(tokens[open]?.type === 'Bracket' && tokens[open]?.literal === '[')) {
      if (tokens[open]?.type === 'Bracket' && tokens[open]?.literal.startsWith(']')) open = -1;
      else open--;
    }
    const sub = tokens[at + 1];
    const op = tokens[at + 2];
    if (open < 0 || sub?.type !== 'Word' || !SUB_ATTRIBUTE.test(sub.literal) || op?.type !== 'Word') {
      throw new InvalidFilter('A value filter may be followed only by a sub-attribute and a comparison.');
    }
    const opName = op.literal.toLowerCase();
    let end = at + 3;
    if (COMPARE_OPS.has(opName)) {
      const value = tokens[end];
      if (!value || value.type === 'Bracket' || value.type === 'EOT') throw new InvalidFilter(`"${op.literal}" needs a value.`);
      end++;
    } else if (opName !== 'pr') throw new InvalidFilter(`Unknown operator "${op.literal}".`);
    const bracket = (literal: string): Token => ({ type: 'Bracket', literal });
    tokens = [
      ...tokens.slice(0, open + 1),
      bracket('('),
      ...tokens.slice(open + 1, at),
      bracket(')'),
      { type: 'Word', literal: 'and' },
      ...tokens.slice(at + 1, end),
      bracket(']'),
      ...tokens.slice(end),
    ];
    at = tokens.findIndex((t) => t.type === 'Bracket' && t.literal === '].');
  }
  return tokens;
}

function parse(text: string): Filter {
  const tokens = new Tokens(tokenize(text));
  const filter = parseTokens(tokens);
  if (tokens.peek().type !== 'EOT') throw new InvalidFilter(`Unexpected "${tokens.peek().literal}" in the filter.`);
  return filter;
}

/**
 * Parses a SCIM filter with scim2-parse-filter's grammar (our tokens), refusing what it would let
 * through: an empty filter and trailing garbage. Evaluation is ours ({@link matches}).
 */
export function parseFilter(text: string): Filter {
  if (!text.trim()) throw new InvalidFilter('The filter is empty.');
  if (text.length > 4000) throw new InvalidFilter('The filter is too long.');
  let ast: Filter;
  try {
    ast = parse(text);
  } catch (error) {
    if (error instanceof InvalidFilter) throw error;
    throw new InvalidFilter(`Invalid filter: ${(error as Error).message}`);
  }
  validate(ast, 0, '');
  return ast;
}

const OPS = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le', 'pr', 'and', 'or', 'not', '[]']);
const ATTR_PATH = /^(urn:[A-Za-z0-9:.\-_]+:)?[A-Za-z$][\w$-]*(\.[A-Za-z$][\w$-]*)?$/;

const ORDERING = new Set(['gt', 'ge', 'lt', 'le']);

/** `prefix`: the multi-valued attribute a value filter's paths are inside (`emails.`). */
function validate(f: Filter, depth: number, prefix: string): void {
  if (depth > 50) throw new InvalidFilter('The filter is nested too deeply.');
  if (!f || typeof f !== 'object' || !OPS.has(f.op)) throw new InvalidFilter('Invalid filter.');
  switch (f.op) {
    case 'and':
    case 'or':
      if (!Array.isArray(f.filters) || f.filters.length < 2) throw new InvalidFilter(`"${f.op}" needs two operands.`);
      for (const g of f.filters) validate(g, depth + 1, prefix);
      return;
    case 'not':
      validate(f.filter, depth + 1, prefix);
      return;
    case '[]':
      if (!ATTR_PATH.test(f.attrPath)) throw new InvalidFilter(`Invalid attribute path "${f.attrPath}".`);
      validate(f.valFilter, depth + 1, `${splitUrn(f.attrPath).path}.`);
      return;
    default: {
      if (typeof f.attrPath !== 'string' || !ATTR_PATH.test(f.attrPath)) {
        throw new InvalidFilter(`Invalid attribute path "${String(f.attrPath)}".`);
      }
      // JSON escapes (\u0000) are decoded after the query string's own check: text the database
      // cannot hold is refused here, or it would reach the SQL.
      const value = (f as { compValue?: unknown }).compValue;
      if (typeof value === 'string' && !isSafeText(value)) {
        throw new InvalidFilter('A filter value must not contain NUL characters or broken Unicode.');
      }
      // RFC 7644 §3.4.2.2: gt, ge, lt and le on a boolean attribute SHALL fail with invalidFilter.
      if (ORDERING.has(f.op) && isBoolean(`${prefix}${splitUrn(f.attrPath).path}`)) {
        throw new InvalidFilter(`"${f.op}" cannot compare the boolean attribute "${f.attrPath}".`);
      }
    }
  }
}

type Json = unknown;

/** Case-insensitive property lookup (SCIM attribute names are case-insensitive). */
export function getProp(obj: Json, name: string): Json {
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return undefined;
  const record = obj as Record<string, Json>;
  if (Object.hasOwn(record, name)) return record[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(record)) if (key.toLowerCase() === lower) return record[key];
  return undefined;
}

/**
 * The values an attribute path reaches in a resource, flattened over multi-valued attributes.
 * `emails` on a multi-valued complex attribute yields its elements' `value` (RFC 7644 §3.4.2.2).
 */
export function valuesAt(resource: Json, attrPath: string): { values: Json[]; path: string } {
  const { schema, path } = splitUrn(attrPath);
  const root = schema ? getProp(resource, schema) : resource;
  const parts = path.split('.');
  let current: Json[] = [root];
  for (const part of parts) {
    const next: Json[] = [];
    for (const c of current) {
      const v = getProp(c, part);
      if (Array.isArray(v)) next.push(...v);
      else if (v !== undefined) next.push(v);
    }
    current = next;
  }
  // A complex value compared directly: its `value` sub-attribute.
  const values = current.flatMap((v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? (getProp(v, 'value') === undefined ? [] : [getProp(v, 'value')]) : [v],
  );
  return { values, path };
}

const present = (v: Json): boolean =>
  v !== null &&
  v !== undefined &&
  !(typeof v === 'string' && v.length === 0) &&
  !(Array.isArray(v) && v.length === 0) &&
  !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

function compare(op: string, actual: Json, expected: Json, path: string): boolean {
  if (expected === null) return op === 'eq' ? actual === null || actual === undefined : false;
  if (typeof expected === 'boolean') {
    if (op !== 'eq') return false;
    return actual === expected;
  }
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') return false;
    switch (op) {
      case 'eq':
        return actual === expected;
      case 'gt':
        return actual > expected;
      case 'ge':
        return actual >= expected;
      case 'lt':
        return actual < expected;
      case 'le':
        return actual <= expected;
      default:
        return false;
    }
  }
  if (typeof expected !== 'string' || typeof actual !== 'string') return false;
  let a = actual;
  let e = expected;
  if (isDateTime(path) && ['gt', 'ge', 'lt', 'le', 'eq'].includes(op)) {
    const ta = Date.parse(a);
    const te = Date.parse(e);
    if (!Number.isNaN(ta) && !Number.isNaN(te)) return compare(op, ta, te, '');
  }
  if (!isCaseExact(path)) {
    a = a.toLowerCase();
    e = e.toLowerCase();
  }
  switch (op) {
    case 'eq':
      return a === e;
    case 'co':
      return a.includes(e);
    case 'sw':
      return a.startsWith(e);
    case 'ew':
      return a.endsWith(e);
    case 'gt':
      return a > e;
    case 'ge':
      return a >= e;
    case 'lt':
      return a < e;
    case 'le':
      return a <= e;
    default:
      return false;
  }
}

/** Whether a resource satisfies a parsed filter (RFC 7644 §3.4.2.2); `prefix` qualifies paths inside a value filter. */
export function matches(f: Filter, resource: Json, prefix = ''): boolean {
  switch (f.op) {
    case 'and':
      return f.filters.every((g) => matches(g, resource, prefix));
    case 'or':
      return f.filters.some((g) => matches(g, resource, prefix));
    case 'not':
      return !matches(f.filter, resource, prefix);
    case '[]': {
      const { schema, path } = splitUrn(f.attrPath);
      const root = schema ? getProp(resource, schema) : resource;
      let elements: Json[] = [root];
      for (const part of path.split('.')) {
        elements = elements.flatMap((c) => {
          const v = getProp(c, part);
          return Array.isArray(v) ? v : v === undefined ? [] : [v];
        });
      }
      const inner = `${prefix}${path}.`;
      return elements.some((el) => el && typeof el === 'object' && matches(f.valFilter, el, inner));
    }
    case 'pr':
      return valuesAtRaw(resource, f.attrPath).some(present);
    case 'ne':
      return !matches({ ...f, op: 'eq' }, resource, prefix);
    default: {
      const { values, path } = valuesAt(resource, f.attrPath);
      const full = `${prefix}${path}`;
      if (values.length === 0) return f.compValue === null && f.op === 'eq';
      return values.some((v) => compare(f.op, v, f.compValue, full));
    }
  }
}

/** The raw values at a path (complex values kept whole), for presence. */
function valuesAtRaw(resource: Json, attrPath: string): Json[] {
  const { schema, path } = splitUrn(attrPath);
  let current: Json[] = [schema ? getProp(resource, schema) : resource];
  for (const part of path.split('.')) {
    current = current.flatMap((c) => {
      const v = getProp(c, part);
      return Array.isArray(v) ? v : v === undefined ? [] : [v];
    });
  }
  return current;
}
