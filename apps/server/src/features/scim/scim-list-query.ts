import type { Filter } from 'scim2-parse-filter';
import { InvalidFilter, parseFilter, valuesAt } from './scim-filter.ts';
import { ScimError } from './scim-patch.ts';
import { CORE_GROUP, CORE_USER, ENTERPRISE_USER, isCaseExact, LIST_RESPONSE, MAX_RESULTS } from './scim-schema.ts';
import { isObj, type Obj } from './scim-shared.ts';

/** A list call's query parameters (RFC 7644 §3.4.2), as the request carries them. */
export interface ListQuery {
  filter?: string;
  startIndex?: string;
  count?: string;
  sortBy?: string;
  sortOrder?: string;
  attributes?: string;
  excludedAttributes?: string;
}

/**
 * Integer parameters, clamped as RFC 7644 §3.4.2.4 says (startIndex below 1 is 1, a negative count
 * is 0). A startIndex past every result is valid and answers an empty page; one past what a
 * JavaScript number holds exactly is past every result too, so it is held there (the database's
 * OFFSET takes it).
 */
export function paging(q: ListQuery) {
  const start = q.startIndex === undefined ? 1 : Number.parseInt(q.startIndex, 10);
  const count = q.count === undefined ? 100 : Number.parseInt(q.count, 10);
  if (Number.isNaN(start) || Number.isNaN(count))
    throw new ScimError(400, 'startIndex and count must be integers.', 'invalidValue');
  return { start: Math.min(Number.MAX_SAFE_INTEGER, Math.max(1, start)), count: Math.min(MAX_RESULTS, Math.max(0, count)) };
}

export const attrList = (v: string | undefined) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean) ?? [];

/** `attributes` / `excludedAttributes` (RFC 7644 §3.4.2.5): id and schemas always stay. */
export function project(resource: Obj, attributes: string[], excluded: string[]): Obj {
  const split = (a: string) => {
    const lower = a.toLowerCase();
    for (const urn of [ENTERPRISE_USER, CORE_USER, CORE_GROUP]) {
      if (lower === urn.toLowerCase()) return { ext: urn, path: [] as string[] };
      if (lower.startsWith(`${urn.toLowerCase()}:`)) {
        return { ext: urn === ENTERPRISE_USER ? urn : null, path: a.slice(urn.length + 1).split('.') };
      }
    }
    return { ext: null, path: a.split('.') };
  };
  const keyIn = (o: Obj, name: string) => Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  if (attributes.length > 0) {
    const out: Obj = { schemas: resource.schemas, id: resource.id };
    for (const a of attributes) {
      const { ext, path } = split(a);
      const from = ext ? (resource[ext] as Obj | undefined) : resource;
      if (!isObj(from)) continue;
      if (ext && !isObj(out[ext])) out[ext] = {};
      const into = (ext ? out[ext] : out) as Obj;
      if (path.length === 0) {
        Object.assign(into, from);
        continue;
      }
      const top = keyIn(from, path[0] as string);
      if (!top) continue;
      if (path.length === 1) into[top] = from[top];
      else {
        const inner = from[top];
        const sub = path[1] as string;
        if (Array.isArray(inner)) {
          into[top] = inner.map((el) =>
            isObj(el) ? Object.fromEntries(Object.entries(el).filter(([k]) => k.toLowerCase() === sub.toLowerCase())) : el,
          );
        } else if (isObj(inner)) {
          const k = keyIn(inner, sub);
          if (k) into[top] = { ...((into[top] as Obj | undefined) ?? {}), [k]: inner[k] };
        }
      }
    }
    return out;
  }
  if (excluded.length === 0) return resource;
  const out = structuredClone(resource);
  for (const a of excluded) {
    const { ext, path } = split(a);
    const from = ext ? (out[ext] as Obj | undefined) : out;
    if (!isObj(from)) continue;
    if (path.length === 0) {
      if (ext) delete out[ext];
      continue;
    }
    const top = keyIn(from, path[0] as string);
    if (!top || (!ext && ['id', 'schemas'].includes(top.toLowerCase()))) continue;
    if (path.length === 1) delete from[top];
    else if (isObj(from[top])) {
      const k = keyIn(from[top] as Obj, path[1] as string);
      if (k) delete (from[top] as Obj)[k];
    } else if (Array.isArray(from[top])) {
      for (const el of from[top] as unknown[])
        if (isObj(el)) for (const k of Object.keys(el)) if (k.toLowerCase() === (path[1] as string).toLowerCase()) delete el[k];
    }
  }
  return out;
}

/** sortBy / sortOrder in memory (for filters SQL cannot finish): missing values last. */
export function sortResources(resources: Obj[], sortBy: string | undefined, sortOrder: string | undefined): Obj[] {
  if (!sortBy) return resources;
  const descending = sortOrder?.toLowerCase() === 'descending';
  const exact = isCaseExact(sortBy);
  const key = (r: Obj) => {
    const [v] = valuesAt(r, sortBy).values;
    if (v === undefined || v === null) return null;
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    return exact ? s : s.toLowerCase();
  };
  const keyed = resources.map((r) => ({ r, k: key(r) }));
  keyed.sort((a, b) => {
    if (a.k === b.k) return 0;
    if (a.k === null) return 1; // missing values last, whatever the order
    if (b.k === null) return -1;
    return (a.k < b.k ? -1 : 1) * (descending ? -1 : 1);
  });
  return keyed.map((x) => x.r);
}

export function filterOf(q: ListQuery): Filter | null {
  if (q.filter === undefined) return null;
  try {
    return parseFilter(q.filter);
  } catch (error) {
    if (error instanceof InvalidFilter) throw new ScimError(400, error.message, 'invalidFilter');
    throw error;
  }
}

/** A page of resources as a SCIM ListResponse. */
export const listResponse = (resources: Obj[], total: number, start: number) => ({
  schemas: [LIST_RESPONSE],
  totalResults: total,
  startIndex: start,
  itemsPerPage: resources.length,
  Resources: resources,
});
