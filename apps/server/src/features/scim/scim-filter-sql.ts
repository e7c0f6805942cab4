import type { Filter } from 'scim2-parse-filter';
import { isCaseExact, splitUrn } from './scim-schema.ts';

/**
 * A resource attribute the database holds in a column, as the resource shows it.
 * `sql` is NULL exactly when the resource has no such attribute (or an empty string).
 */
export interface Column {
  sql: string;
  type: 'string' | 'boolean' | 'dateTime';
  /** RFC 7643 caseExact; false: compared lower-cased. */
  caseExact: boolean;
  /** The column is stored lower-case already (emails): compared without lower(), so its index serves. */
  storedLower?: boolean;
  /**
   * The bare column behind `sql` when that only maps '' to NULL: `eq` with a non-empty value
   * compares it directly, so an index on it serves.
   */
  indexed?: string;
  /**
   * A sub-attribute of a multi-valued attribute (`emails.value`): `sql` is then a query of the
   * values the resource may show, as `x` (text; null for a value that is not a string). A
   * comparison on it only narrows: it holds when some value compares or one cannot be told.
   */
  values?: boolean;
}
export type Columns = Record<string, Column>;

/** A SQL condition: `exact` when it holds for exactly the resources the filter matches, else only for a superset. */
interface SqlCondition {
  sql: string;
  exact: boolean;
}

const TRUE = { sql: 'true', exact: false };
const FALSE = { sql: 'false', exact: true };

/** A dateTime column as its resource shows it (Date.toISOString(): UTC, milliseconds). */
const iso = (sql: string) => `to_char(${sql} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const ms = (sql: string) => `date_trunc('milliseconds', ${sql})`;

/**
 * Translates a parsed SCIM filter into a parameterised SQL condition over `columns` (RFC 7644
 * §3.4.2.2 with RFC 7643's case rules), exactly as {@link matches} evaluates it: every operator,
 * and/or/not, grouping, absent attributes, string/boolean/number/null values, dateTime as instants.
 * Parts on attributes without a column (value paths, name.givenName, extensions...) become `true`
 * and make the result inexact: the rows it selects are then filtered in memory by `matches`.
 * Values go into `params` (placeholders numbered after those already there), never into the text.
 */
export function filterToSql(f: Filter, columns: Columns, params: unknown[]): SqlCondition {
  const bind = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const walk = (f: Filter): SqlCondition => {
    switch (f.op) {
      case 'and':
      case 'or': {
        const parts = f.filters.map(walk);
        return { sql: `(${parts.map((p) => p.sql).join(` ${f.op} `)})`, exact: parts.every((p) => p.exact) };
      }
      case 'not': {
        const before = params.length;
        const inner = walk(f.filter);
        // Comparisons are left NULL-able (so indexes serve them): and/or are monotone, so a NULL
        // that stays to the end reads as false, as the evaluator's; a negation must decide first.
        if (inner.exact) return { sql: `(not coalesce(${inner.sql}, false))`, exact: true };
        // not(superset) is no superset of anything: only an exact inner part can be negated. The
        // dropped part's values go too (they were the last ones bound).
        params.length = before;
        return TRUE;
      }
      case '[]': {
        const { schema, path } = splitUrn(f.attrPath);
        return schema ? TRUE : { sql: narrowElements(f.valFilter, `${path.toLowerCase()}.`, columns, bind), exact: false };
      }
      default: {
        const { schema, path } = splitUrn(f.attrPath);
        const column = schema ? undefined : columns[path.toLowerCase()];
        if (!column) return TRUE;
        if (column.values) return f.op === 'pr' ? TRUE : { sql: someValue(column, f.op, f.compValue, bind), exact: false };
        if (f.op === 'ne') {
          const eq = compare(column, 'eq', f.compValue, bind);
          return { sql: `(not coalesce(${eq}, false))`, exact: true };
        }
        if (f.op === 'pr') return { sql: `(${column.sql} is not null)`, exact: true };
        return { sql: compare(column, f.op, f.compValue, bind), exact: true };
      }
    }
  };
  return walk(f);
}

/**
 * A value filter's condition on one element (`emails[type eq "work" and value eq "x"]`) as a
 * superset in SQL: each comparison on a sub-attribute kept as {@link Column.values} narrows; and/or
 * of narrowings narrow; anything else (negations, sub-attributes without values) is `true`.
 */
function narrowElements(f: Filter, prefix: string, columns: Columns, bind: (v: unknown) => string): string {
  switch (f.op) {
    case 'and':
    case 'or':
      return `(${f.filters.map((g) => narrowElements(g, prefix, columns, bind)).join(` ${f.op} `)})`;
    case 'not':
    case '[]':
    case 'ne':
    case 'pr':
      return TRUE.sql;
    default: {
      const column = columns[`${prefix}${f.attrPath.toLowerCase()}`];
      return column?.values ? someValue(column, f.op, f.compValue, bind) : TRUE.sql;
    }
  }
}

/** Some value of a multi-valued sub-attribute compares (or is not text, so SQL cannot tell). */
function someValue(c: Column, op: string, value: unknown, bind: (v: unknown) => string): string {
  if (typeof value !== 'string' || !(op in SQL_OPS || ['co', 'sw', 'ew'].includes(op))) return TRUE.sql;
  const cond = compare({ sql: 'v.x', type: 'string', caseExact: c.caseExact }, op, value, bind);
  return `exists (select 1 from (${c.sql}) v where v.x is null or ${cond})`;
}

/** One comparison as `compare` in scim-filter.ts does it; NULL where the evaluator says false (the attribute is absent). */
function compare(c: Column, op: string, value: unknown, bind: (v: unknown) => string): string {
  if (value === null) return op === 'eq' ? `(${c.sql} is null)` : FALSE.sql;
  if (typeof value === 'boolean') return op === 'eq' && c.type === 'boolean' ? `(${c.sql} = ${bind(value)})` : FALSE.sql;
  // No numeric columns: a number never equals a string or a boolean.
  if (typeof value !== 'string' || c.type === 'boolean') return FALSE.sql;
  if (c.type === 'dateTime' && ['eq', 'gt', 'ge', 'lt', 'le'].includes(op)) {
    const t = Date.parse(value);
    if (!Number.isNaN(t)) {
      // Instants a timestamp column cannot hold: before or after every resource's.
      if (t < MIN_INSTANT) return op === 'gt' || op === 'ge' ? `(${c.sql} is not null)` : FALSE.sql;
      if (t > MAX_INSTANT) return op === 'lt' || op === 'le' ? `(${c.sql} is not null)` : FALSE.sql;
      return `(${ms(c.sql)} ${SQL_OPS[op]} ${bind(new Date(t).toISOString())}::timestamptz)`;
    }
  }
  const text = c.type === 'dateTime' ? iso(c.sql) : op === 'eq' && value !== '' && c.indexed ? c.indexed : c.sql;
  const lower = !c.caseExact && !c.storedLower;
  const a = lower ? `lower(${text})` : text;
  const e = bind(c.caseExact ? value : value.toLowerCase());
  const cond = (() => {
    switch (op) {
      case 'eq':
        return `${a} = ${e}`;
      case 'co':
        return `strpos(${a}, ${e}) > 0`;
      case 'sw':
        return `starts_with(${a}, ${e})`;
      case 'ew':
        return `right(${a}, length(${e})) = ${e}`;
      case 'gt':
      case 'ge':
      case 'lt':
      case 'le':
        // Code-point order, as JavaScript compares strings (not the database's collation).
        return `${a} collate "C" ${SQL_OPS[op]} ${e}`;
      default:
        return FALSE.sql;
    }
  })();
  return `(${cond})`;
}

const MIN_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
const MAX_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const SQL_OPS: Record<string, string> = { eq: '=', gt: '>', ge: '>=', lt: '<', le: '<=' };

/**
 * `sortBy` as an ORDER BY when its attribute has a column, as sortResources orders: lower-cased
 * unless caseExact, code-point order, resources without the attribute last whichever the order,
 * ties in `tieBreak` order. Null when it has none (then sorted in memory).
 */
export function sortToSql(sortBy: string | undefined, sortOrder: string | undefined, columns: Columns, tieBreak: string) {
  if (!sortBy) return `order by ${tieBreak}`;
  const { schema, path } = splitUrn(sortBy);
  const c = schema ? undefined : columns[path.toLowerCase()];
  if (!c) return null;
  const key =
    c.type === 'boolean'
      ? `case when ${c.sql} then 'true' else 'false' end`
      : c.type === 'dateTime'
        ? `lower(${iso(c.sql)})`
        : isCaseExact(sortBy) || c.storedLower
          ? c.sql
          : `lower(${c.sql})`;
  const descending = sortOrder?.toLowerCase() === 'descending';
  return `order by (${key}) is null, (${key}) collate "C"${descending ? ' desc' : ''}, ${tieBreak}`;
}
