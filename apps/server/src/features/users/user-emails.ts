import type { Queryable } from '@latchkey/runtime';

/** Whether one of these users has this email, compared without case. */
export async function anyUserHasEmail(q: Queryable, userIds: string[], email: string): Promise<boolean> {
  if (userIds.length === 0) return false;
  const rows = await q.query('select 1 from users where id = any($1::uuid[]) and lower(email) = lower($2) limit 1', [
    userIds,
    email,
  ]);
  return rows.length > 0;
}
