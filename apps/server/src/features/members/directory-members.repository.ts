// The members as directory sync reads and writes them (features/directory): the members table's SQL stays here.
import type { MemberSource, MemberStatus } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

export interface DirectoryMemberRecord {
  id: string;
  email: string;
  name: string;
  status: MemberStatus;
  source: MemberSource;
  directory_id: string | null;
}

const MEMBER = 'id, email, name, status, source, directory_id';
const CURRENT = 'team_id = $1 and deboarded_at is null';

export const directoryMembersRepository = {
  /** Every current member, by email. */
  all(q: Queryable, teamId: string): Promise<DirectoryMemberRecord[]> {
    return q.query<DirectoryMemberRecord>(`select ${MEMBER} from members where ${CURRENT} order by email`, [teamId]);
  },

  /** Current members by id, locked for the rest of the transaction. */
  lock(q: Queryable, teamId: string, ids: string[]): Promise<DirectoryMemberRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return q.query<DirectoryMemberRecord>(`select ${MEMBER} from members where ${CURRENT} and id = any($2::uuid[]) for update`, [
      teamId,
      ids,
    ]);
  },

  /** Current members the directory owns, by directory id. */
  async byDirectoryIds(q: Queryable, teamId: string, directoryIds: string[]): Promise<Map<string, DirectoryMemberRecord>> {
    if (directoryIds.length === 0) return new Map();
    const rows = await q.query<DirectoryMemberRecord>(
      `select ${MEMBER} from members where ${CURRENT} and source = 'directory' and directory_id = any($2::text[])`,
      [teamId, directoryIds],
    );
    return new Map(rows.map((r) => [r.directory_id as string, r]));
  },

  /** The ids of every current member the directory owns. */
  async directoryOwnedIds(q: Queryable, teamId: string): Promise<string[]> {
    const rows = await q.query<{ id: string }>(`select id from members where ${CURRENT} and source = 'directory'`, [teamId]);
    return rows.map((r) => r.id);
  },

  /**
   * New members (or former ones coming back) as invited and licensed, owned by the directory, as the
   * console's invite makes them, in one statement; those a current member's email already has are
   * left out of the answer.
   */
  insertMany(
    q: Queryable,
    teamId: string,
    rows: readonly { email: string; name: string; directory_id: string }[],
  ): Promise<DirectoryMemberRecord[]> {
    return q.query<DirectoryMemberRecord>(
      `insert into members (team_id, email, status, licensed, usage, invited_at, onboarded_at, name, source, directory_id)
       select $1, email, 'invited', true, 'unresponsive', now(), now(), name, 'directory', directory_id
       from unnest($2::text[], $3::text[], $4::text[]) as r (email, name, directory_id)
       on conflict (team_id, email) do update set deboarded_at = null, status = 'invited', licensed = true,
         usage = 'unresponsive', invited_at = now(), onboarded_at = now(), last_active_at = null,
         name = excluded.name, source = 'directory', directory_id = excluded.directory_id, status_before_suspension = null
       where members.deboarded_at is not null
       returning ${MEMBER}`,
      [teamId, rows.map((r) => r.email), rows.map((r) => r.name), rows.map((r) => r.directory_id)],
    );
  },

  /** The directory takes the member (a console member found by email) or updates one it owns. */
  async update(
    q: Queryable,
    teamId: string,
    id: string,
    m: { email: string; name: string; directory_id: string },
  ): Promise<void> {
    await q.query(
      `update members set email = $3, name = $4, directory_id = $5, source = 'directory' where ${CURRENT} and id = $2`,
      [teamId, id, m.email, m.name, m.directory_id],
    );
  },

  /** Whether a current member other than `exceptId` has this email. */
  async emailTaken(q: Queryable, teamId: string, email: string, exceptId: string): Promise<boolean> {
    const rows = await q.query(`select 1 from members where ${CURRENT} and email = $2 and id <> $3`, [teamId, email, exceptId]);
    return rows.length > 0;
  },

  async suspend(q: Queryable, teamId: string, id: string): Promise<boolean> {
    const rows = await q.query(
      `update members set status = 'suspended', status_before_suspension = status
       where ${CURRENT} and id = $2 and status in ('invited', 'active') returning id`,
      [teamId, id],
    );
    return rows.length > 0;
  },

  async restore(q: Queryable, teamId: string, id: string): Promise<boolean> {
    const rows = await q.query(
      `update members set status = coalesce(status_before_suspension, 'active'), status_before_suspension = null
       where ${CURRENT} and id = $2 and status = 'suspended' returning id`,
      [teamId, id],
    );
    return rows.length > 0;
  },

  async remove(q: Queryable, teamId: string, id: string): Promise<boolean> {
    const rows = await q.query(
      `update members set deboarded_at = now(), licensed = false where ${CURRENT} and id = $2 returning id`,
      [teamId, id],
    );
    return rows.length > 0;
  },
};
