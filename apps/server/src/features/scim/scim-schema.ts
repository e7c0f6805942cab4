/** SCIM 2.0 schema URNs and the attribute facts filters, sorting and PATCH need (RFC 7643). */
export const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const CORE_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
export const MAX_RESULTS = 1000;

/** Schema URNs an attribute path may be qualified with, lower-cased. */
export const KNOWN_SCHEMAS = [ENTERPRISE_USER, CORE_USER, CORE_GROUP];

/**
 * Attributes compared case-sensitively (caseExact true in RFC 7643): ids, externalId, references
 * and the version. Everything else (userName, emails, displayName, ...) compares case-insensitively.
 */
const CASE_EXACT = new Set(['id', 'externalid', 'meta.version', 'members.value', 'members.$ref', 'manager.value', '$ref']);
export const isCaseExact = (path: string): boolean => CASE_EXACT.has(path.toLowerCase());

/** dateTime attributes: compared as instants. */
const DATE_TIME = new Set(['meta.created', 'meta.lastmodified']);
export const isDateTime = (path: string): boolean => DATE_TIME.has(path.toLowerCase());

/**
 * Boolean attributes, which Entra may send as the strings "True" and "False": `active`, and the
 * `primary` of every multi-valued attribute (RFC 7643 §2.4), alone inside a value filter.
 */
const BOOLEANS = new Set(['active', 'primary']);
export const isBoolean = (path: string): boolean => {
  const lower = path.toLowerCase();
  return BOOLEANS.has(lower) || lower.endsWith('.primary');
};

/**
 * Splits a possibly schema-qualified attribute path into the schema (an extension's URN, or null
 * for the core) and the dotted path within it.
 */
export function splitUrn(path: string): { schema: string | null; path: string } {
  const lower = path.toLowerCase();
  for (const urn of KNOWN_SCHEMAS) {
    if (lower.startsWith(`${urn.toLowerCase()}:`)) {
      return { schema: urn === ENTERPRISE_USER ? ENTERPRISE_USER : null, path: path.slice(urn.length + 1) };
    }
  }
  return { schema: null, path };
}
