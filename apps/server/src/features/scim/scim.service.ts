// SCIM Users and Groups over the team's members and groups, as the console's own actions do: the
// Users in scim-users.ts, the Groups in scim-groups.ts, list queries in scim-list-query.ts.
import type { Db } from '@latchkey/runtime';
import type { MailOutbox } from '../../platform/mail.ts';
import { createScimGroups } from './scim-groups.ts';
import { createScimUsers } from './scim-users.ts';

export type { ListQuery } from './scim-list-query.ts';

export function createScimService(db: Db, mail: MailOutbox, baseUrl: () => string) {
  const ctx = { db, mail, baseUrl };
  return { ...createScimUsers(ctx), ...createScimGroups(ctx) };
}
export type ScimService = ReturnType<typeof createScimService>;
