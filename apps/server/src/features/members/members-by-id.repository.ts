// Members looked up by id for the rooms whose rows point at them (a group's members): one query
// per batch of ids, never one per row.
import type { MemberStatus } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export const membersByIdRepository = {
  /** The current members among `ids`, by email. */
  async current(q: Queryable, ids: readonly string[]) {
    if (ids.length === 0) return [];
    return q.query<{ id: string; email: string; name: string; status: MemberStatus }>(
      'select id, email, name, status from members where id = any($1::uuid[]) and deboarded_at is null order by email',
      [ids],
    );
  },

  /**
   * Per key (a group), from (key, member id) pairs: how many of its members are current, and their
   * emails in order, the first `emailLimit` of them (all when null). Keys without a current member are absent.
   */
  async currentPerKey(
    q: Queryable,
    pairs: readonly { key: string; member_id: string }[],
    emailLimit: number | null,
  ): Promise<{ key: string; member_count: number; emails: string[] }[]> {
    if (pairs.length === 0) return [];
    return q.query<{ key: string; member_count: number; emails: string[] }>(
      `select p.key, count(*)::int as member_count,
         (array_agg(m.email order by m.email))${emailLimit === null ? '' : '[1:$3::int]'} as emails
       from unnest($1::uuid[], $2::uuid[]) as p(key, member_id) join members m on m.id = p.member_id
       where m.deboarded_at is null group by p.key`,
      [pairs.map((p) => p.key), pairs.map((p) => p.member_id), ...(emailLimit === null ? [] : [emailLimit])],
    );
  },
};
