import type { Filter } from 'scim2-parse-filter';
import { getProp, InvalidFilter, matches, parseFilter } from './scim-filter.ts';
import { isBoolean, KNOWN_SCHEMAS } from './scim-schema.ts';

/** A SCIM protocol error (RFC 7644 §3.12). */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The key an attribute has in `obj` (attribute names are case-insensitive), or `name` itself. */
function keyOf(obj: Obj, name: string): string {
  if (Object.hasOwn(obj, name)) return name;
  const lower = name.toLowerCase();
  return Object.keys(obj).find((k) => k.toLowerCase() === lower) ?? name;
}

/** Entra sends booleans as "True"/"False": booleans wherever the schema has one. */
function coerceBoolean(path: string, value: unknown): unknown {
  if (typeof value === 'string' && isBoolean(path)) {
    const lower = value.trim().toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    throw new ScimError(400, `"${path}" must be a boolean.`, 'invalidValue');
  }
  return value;
}

/** Booleans coerced throughout a resource (active, and `primary` of multi-valued attributes). */
export function normalizeBooleans(resource: Obj): Obj {
  for (const key of Object.keys(resource)) {
    const v = resource[key];
    if (key.toLowerCase() === 'active') resource[key] = coerceBoolean('active', v);
    if (Array.isArray(v))
      for (const el of v)
        if (isObj(el)) for (const k of Object.keys(el)) el[k] = coerceBoolean(k === 'primary' ? 'primary' : k, el[k]);
  }
  return resource;
}

interface ParsedPath {
  /** The object the attribute lives in: the resource, or an extension's object (created on demand). */
  schema: string | null;
  attribute: string;
  filter: Filter | null;
  sub: string | null;
}

const PATH = /^([A-Za-z$][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z$][\w$-]*))?$/s;

function parsePath(raw: string): ParsedPath {
  let rest = raw.trim();
  let schema: string | null = null;
  const lower = rest.toLowerCase();
  for (const urn of KNOWN_SCHEMAS) {
    if (lower.startsWith(`${urn.toLowerCase()}:`)) {
      rest = rest.slice(urn.length + 1);
      schema = urn.includes(':extension:') ? urn : null;
      break;
    }
    if (lower === urn.toLowerCase()) return { schema: urn, attribute: '', filter: null, sub: null };
  }
  // name.givenName (a sub-attribute without a filter)
  const dotted = /^([A-Za-z$][\w$-]*)\.([A-Za-z$][\w$-]*)$/.exec(rest);
  if (dotted) return { schema, attribute: dotted[1] as string, filter: null, sub: dotted[2] as string };
  const m = PATH.exec(rest);
  if (!m) throw new ScimError(400, `Invalid path "${raw}".`, 'invalidPath');
  let filter: Filter | null = null;
  if (m[2] !== undefined) {
    try {
      filter = parseFilter(m[2]);
    } catch (error) {
      if (error instanceof InvalidFilter) throw new ScimError(400, `Invalid path "${raw}": ${error.message}`, 'invalidPath');
      throw error;
    }
  }
  return { schema, attribute: m[1] as string, filter, sub: m[3] ?? null };
}

const IMMUTABLE = new Set(['id', 'meta', 'schemas']);

/** Values of a multi-valued attribute compared for de-duplication: by `value` when there is one. */
const identity = (v: unknown): string =>
  isObj(v) && getProp(v, 'value') !== undefined ? `v:${String(getProp(v, 'value'))}` : JSON.stringify(v);

function container(resource: Obj, schema: string | null, create: boolean): Obj | undefined {
  if (!schema) return resource;
  const key = keyOf(resource, schema);
  if (!isObj(resource[key])) {
    if (!create) return undefined;
    resource[key] = {};
  }
  return resource[key] as Obj;
}

function merge(target: Obj, attribute: string, value: unknown, op: 'add' | 'replace', multi: Set<string>): void {
  const key = keyOf(target, attribute);
  const current = target[key];
  if (Array.isArray(current) || multi.has(attribute.toLowerCase())) {
    const incoming = Array.isArray(value) ? value : [value];
    if (op === 'replace' || !Array.isArray(current)) {
      target[key] = dedupe(incoming);
      return;
    }
    target[key] = dedupe([...current, ...incoming]);
    return;
  }
  if (op === 'add' && isObj(current) && isObj(value)) {
    for (const [k, v] of Object.entries(value)) current[keyOf(current, k)] = v;
    return;
  }
  target[key] = value;
}

function dedupe(values: unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const v of values) seen.set(identity(v), v);
  return [...seen.values()];
}

/**
 * Applies one PatchOp request's operations to a resource (a copy), as RFC 7644 §3.5.2 says, with
 * the forms Entra ID and Okta send: capitalised ops, string booleans, `value` objects with dotted
 * or schema-qualified keys, removal of members by value list (Entra's `$ref: null` items) or by a
 * value filter (Okta).
 */
export function applyPatch(resource: Obj, body: unknown, multiValued: readonly string[], readOnly: readonly string[] = []): Obj {
  const multi = new Set(multiValued.map((m) => m.toLowerCase()));
  const fixed = new Set(readOnly.map((m) => m.toLowerCase()));
  if (!isObj(body)) throw new ScimError(400, 'The body must be a PatchOp object.', 'invalidSyntax');
  const ops = getProp(body, 'Operations');
  if (!Array.isArray(ops) || ops.length === 0) throw new ScimError(400, 'Operations must be a non-empty array.', 'invalidSyntax');
  if (ops.length > 1000) throw new ScimError(400, 'At most 1000 operations per request.', 'tooMany');
  const result = structuredClone(resource);
  for (const raw of ops) {
    if (!isObj(raw)) throw new ScimError(400, 'Each operation must be an object.', 'invalidSyntax');
    const opName = getProp(raw, 'op');
    const op = typeof opName === 'string' ? opName.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw new ScimError(400, `Unknown op "${String(opName)}".`, 'invalidSyntax');
    const pathValue = getProp(raw, 'path');
    const value = getProp(raw, 'value');
    if (pathValue !== undefined && pathValue !== null && typeof pathValue !== 'string') {
      throw new ScimError(400, 'path must be a string.', 'invalidPath');
    }
    const path = typeof pathValue === 'string' && pathValue.trim() ? pathValue : null;
    if (!path) {
      if (op === 'remove') throw new ScimError(400, 'remove needs a path.', 'noTarget');
      if (!isObj(value)) throw new ScimError(400, `${op} without a path needs an object value.`, 'invalidValue');
      for (const [k, v] of Object.entries(value)) {
        // Okta's replace without a path repeats the group's own id; schemas and meta are the server's.
        if (['schemas', 'meta'].includes(k.toLowerCase())) continue;
        if (k.toLowerCase() === 'id' && v === getProp(result, 'id')) continue;
        const known = KNOWN_SCHEMAS.find((u) => u.toLowerCase() === k.toLowerCase());
        if (known?.includes(':extension:') && isObj(v)) {
          const ext = container(result, known, true) as Obj;
          for (const [ek, ev] of Object.entries(v)) merge(ext, ek, ev, op, multi);
          continue;
        }
        applyAtPath(result, parsePath(k), op, v, multi, fixed);
      }
      continue;
    }
    const parsed = parsePath(path);
    if (op !== 'remove' && value === undefined) throw new ScimError(400, `${op} needs a value.`, 'invalidValue');
    applyAtPath(result, parsed, op, value, multi, fixed);
  }
  return normalizeBooleans(result);
}

function applyAtPath(
  resource: Obj,
  p: ParsedPath,
  op: 'add' | 'replace' | 'remove',
  value: unknown,
  multi: Set<string>,
  readOnly: Set<string>,
) {
  if (!p.schema && IMMUTABLE.has(p.attribute.toLowerCase())) {
    throw new ScimError(400, `"${p.attribute}" cannot be changed.`, 'mutability');
  }
  if (!p.schema && readOnly.has(p.attribute.toLowerCase())) {
    throw new ScimError(400, `"${p.attribute}" is read-only: the server sets it.`, 'mutability');
  }
  if (p.attribute === '') {
    // The whole extension.
    if (op === 'remove') delete resource[keyOf(resource, p.schema as string)];
    else if (isObj(value)) {
      const ext = container(resource, p.schema, true) as Obj;
      for (const [k, v] of Object.entries(value)) merge(ext, k, v, op, multi);
    } else throw new ScimError(400, 'An extension value must be an object.', 'invalidValue');
    return;
  }
  const target = container(resource, p.schema, op !== 'remove');
  if (!target) return;
  const key = keyOf(target, p.attribute);
  const current = target[key];
  const fullPath = p.sub ? `${p.attribute}.${p.sub}` : p.attribute;
  const coerced = coerceBoolean(fullPath, value);

  if (p.filter) {
    const elements = Array.isArray(current) ? current : [];
    const hits = elements.filter((el) => isObj(el) && matches(p.filter as Filter, el));
    if (op === 'remove') {
      if (p.sub) for (const el of hits) delete (el as Obj)[keyOf(el as Obj, p.sub)];
      else target[key] = elements.filter((el) => !hits.includes(el));
      return;
    }
    if (hits.length === 0) {
      // RFC 7644 §3.5.2.3: a replace whose value filter matches nothing SHALL fail with noTarget.
      if (op === 'replace') throw new ScimError(400, `"${p.attribute}" has no value the path's filter matches.`, 'noTarget');
      // An add of emails[type eq "work"].value on a user without one (Entra): the value is created.
      const f = p.filter;
      if (f.op === 'eq' && !f.attrPath.includes('.')) {
        const el: Obj = { [f.attrPath]: f.compValue };
        if (p.sub) el[p.sub] = coerced;
        else if (isObj(coerced)) Object.assign(el, coerced);
        target[key] = [...elements, el];
        return;
      }
      throw new ScimError(400, "The path's filter matches nothing.", 'noTarget');
    }
    for (const el of hits as Obj[]) {
      if (p.sub) el[keyOf(el, p.sub)] = coerced;
      else if (isObj(coerced)) for (const [k, v] of Object.entries(coerced)) el[keyOf(el, k)] = v;
    }
    return;
  }

  if (p.sub) {
    if (Array.isArray(current)) {
      // emails.value on every element
      for (const el of current) {
        if (!isObj(el)) continue;
        if (op === 'remove') delete el[keyOf(el, p.sub)];
        else el[keyOf(el, p.sub)] = coerced;
      }
      return;
    }
    if (op === 'remove') {
      if (isObj(current)) delete current[keyOf(current, p.sub)];
      return;
    }
    const obj = isObj(current) ? current : {};
    obj[keyOf(obj, p.sub)] = coerced;
    target[key] = obj;
    return;
  }

  if (op === 'remove') {
    if (Array.isArray(current) && value !== undefined && value !== null) {
      // members with a value list (Entra sends items with "$ref": null): those, by value.
      const gone = new Set((Array.isArray(value) ? value : [value]).map(identity));
      target[key] = current.filter((el) => !gone.has(identity(el)));
      return;
    }
    delete target[key];
    return;
  }
  merge(target, p.attribute, coerced, op, multi);
}
