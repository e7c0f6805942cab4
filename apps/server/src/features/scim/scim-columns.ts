// Which SCIM attributes live in which SQL expressions, so filters and sorting on them run in the database.
import type { Columns } from './scim-filter-sql.ts';

/** The User attributes kept in columns (lower-cased paths), for filters and sorting in SQL. */
export const USER_COLUMNS: Columns = {
  id: { sql: 'id::text', type: 'string', caseExact: true },
  username: { sql: 'coalesce(scim_user_name, email)', type: 'string', caseExact: false },
  // Every value `emails` may show: those sent, and the member's email (shown when none were).
  'emails.value': {
    sql: `select email as x union all
      select case jsonb_typeof(kv.value) when 'string' then kv.value #>> '{}' end from jsonb_each(scim_attributes) a
      cross join lateral jsonb_array_elements(case jsonb_typeof(a.value) when 'array' then a.value
        when 'object' then jsonb_build_array(a.value) else '[]'::jsonb end) e
      cross join lateral jsonb_each(case jsonb_typeof(e) when 'object' then e else '{}'::jsonb end) kv
      where lower(a.key) = 'emails' and lower(kv.key) = 'value'`,
    type: 'string',
    caseExact: false,
    values: true,
  },
  externalid: { sql: "nullif(scim_external_id, '')", type: 'string', caseExact: true, indexed: 'scim_external_id' },
  active: { sql: "(status <> 'suspended')", type: 'boolean', caseExact: true },
  'meta.created': { sql: 'onboarded_at', type: 'dateTime', caseExact: false },
  'meta.lastmodified': { sql: 'updated_at', type: 'dateTime', caseExact: false },
};
/** The Group attributes kept in columns. */
export const GROUP_COLUMNS: Columns = {
  id: { sql: 'id::text', type: 'string', caseExact: true },
  displayname: { sql: "nullif(name, '')", type: 'string', caseExact: false, indexed: 'name' },
  externalid: { sql: "nullif(scim_external_id, '')", type: 'string', caseExact: true, indexed: 'scim_external_id' },
  'meta.created': { sql: 'created_at', type: 'dateTime', caseExact: false },
  'meta.lastmodified': { sql: 'updated_at', type: 'dateTime', caseExact: false },
};
