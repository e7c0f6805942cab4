// The members as SCIM reads and writes them (features/scim): the members table's SQL stays here.
import type { Queryable } from '@latchkey/runtime';
import { pagedSelect } from '../../platform/paged-select.ts';

export interface ScimMemberRecord {
  id: string;
  email: string;
  /** The userName as the identity provider sent it; null: never named by SCIM (its userName is the email). */
  scim_user_name: string | null;
  name: string;
  status: 'invited' | 'active' | 'suspended';
  scim_external_id: string | null;
  scim_attributes: Record<string, unknown>;
  scim_version: number;
  onboarded_at: Date;
  updated_at: Date;
}

/** What a SCIM write sets on a member. */
export interface ScimMemberWrite {
  email: string;
  userName: string;
  name: string;
  externalId: string | null;
  attributes: Record<string, unknown>;
}

const MEMBER =
  'id, email, scim_user_name, name, status, scim_external_id, scim_attributes, scim_version, onboarded_at, updated_at';
const CURRENT = 'team_id = $1 and deboarded_at is null';

export const scimMembersRepository = {
  /** One current member; `id` must be a uuid. */
  async find(q: Queryable, teamId: string, id: string, lock = false): Promise<ScimMemberRecord | undefined> {
    const [row] = await q.query<ScimMemberRecord>(
      `select ${MEMBER} from members where ${CURRENT} and id = $2${lock ? ' for update' : ''}`,
      [teamId, id],
    );
    return row;
  },

  async findByEmail(q: Queryable, teamId: string, email: string): Promise<ScimMemberRecord | undefined> {
    const [row] = await q.query<ScimMemberRecord>(`select ${MEMBER} from members where ${CURRENT} and email = $2`, [
      teamId,
      email,
    ]);
    return row;
  },

  /** Whether a current member other than `exceptId` has this userName, compared without case. */
  async userNameTaken(q: Queryable, teamId: string, userName: string, exceptId?: string): Promise<boolean> {
    const rows = await q.query(
      `select 1 from members where ${CURRENT} and lower(coalesce(scim_user_name, email)) = lower($2) and id::text <> $3 limit 1`,
      [teamId, userName, exceptId ?? ''],
    );
    return rows.length > 0;
  },

  /**
   * Current members where `where` (SQL over a members row; $1 is the team) holds, in `orderBy`
   * order, a page of them, with how many hold in all.
   */
  page(q: Queryable, where: string, params: unknown[], orderBy: string, offset: number, limit: number) {
    return pagedSelect<ScimMemberRecord>(q, `${MEMBER} from members where ${CURRENT}`, where, params, orderBy, offset, limit);
  },

  /** Every current member where `where` holds ($1 is the team), by email. */
  where(q: Queryable, where: string, params: unknown[]): Promise<ScimMemberRecord[]> {
    return q.query<ScimMemberRecord>(`select ${MEMBER} from members where ${CURRENT} and ${where} order by email`, params);
  },

  /** Which of `ids` (uuids) are current members of the team. */
  async currentIds(q: Queryable, teamId: string, ids: string[]): Promise<string[]> {
    const rows = await q.query<{ id: string }>(`select id from members where ${CURRENT} and id = any($2::uuid[])`, [teamId, ids]);
    return rows.map((r) => r.id);
  },

  /** The current ones among `ids` with their emails, by email (the values of a SCIM group's `members`). */
  async currentEmails(q: Queryable, ids: string[]): Promise<{ id: string; email: string }[]> {
    if (ids.length === 0) return [];
    return q.query<{ id: string; email: string }>(
      'select id, email from members where id = any($1::uuid[]) and deboarded_at is null order by email',
      [ids],
    );
  },

  /**
   * A new member (or a former one coming back) as invited and licensed, as the console's invite
   * (membersRepository.invite) makes them, with the SCIM attributes in the same statement;
   * undefined when a current member has that email.
   */
  async insert(q: Queryable, teamId: string, m: ScimMemberWrite): Promise<ScimMemberRecord | undefined> {
    const [row] = await q.query<ScimMemberRecord>(
      `insert into members (team_id, email, status, licensed, usage, invited_at, onboarded_at, name, scim_external_id, scim_attributes, scim_user_name, source)
       values ($1, $2, 'invited', true, 'unresponsive', now(), now(), $3, $4, $5, $6, 'scim')
       on conflict (team_id, email) do update set deboarded_at = null, status = 'invited', licensed = true,
         usage = 'unresponsive', invited_at = now(), onboarded_at = now(), last_active_at = null,
         name = excluded.name, scim_external_id = excluded.scim_external_id, scim_attributes = excluded.scim_attributes,
         scim_user_name = excluded.scim_user_name, status_before_suspension = null, source = 'scim', directory_id = null,
         scim_version = members.scim_version + 1, updated_at = now()
       where members.deboarded_at is not null
       returning ${MEMBER}`,
      [teamId, m.email, m.name, m.externalId, JSON.stringify(m.attributes), m.userName],
    );
    return row;
  },

  async update(q: Queryable, teamId: string, id: string, m: ScimMemberWrite): Promise<ScimMemberRecord | undefined> {
    const [row] = await q.query<ScimMemberRecord>(
      `update members set email = $3, name = $4, scim_external_id = $5, scim_attributes = $6, scim_user_name = $7, source = 'scim',
         scim_version = scim_version + 1, updated_at = now() where ${CURRENT} and id = $2 returning ${MEMBER}`,
      [teamId, id, m.email, m.name, m.externalId, JSON.stringify(m.attributes), m.userName],
    );
    return row;
  },

  /** Suspends an invited or active member, remembering which it was; undefined when it was neither. */
  async suspend(q: Queryable, teamId: string, id: string): Promise<ScimMemberRecord | undefined> {
    const [row] = await q.query<ScimMemberRecord>(
      `update members set status = 'suspended', status_before_suspension = status, scim_version = scim_version + 1, updated_at = now()
       where ${CURRENT} and id = $2 and status in ('invited', 'active') returning ${MEMBER}`,
      [teamId, id],
    );
    return row;
  },

  /**
   * Restores a suspended member to the status it had (invited stays invited; active when not known,
   * as for members suspended before it was kept); undefined when it was not suspended.
   */
  async restore(q: Queryable, teamId: string, id: string): Promise<ScimMemberRecord | undefined> {
    const [row] = await q.query<ScimMemberRecord>(
      `update members set status = coalesce(status_before_suspension, 'active'), status_before_suspension = null,
         scim_version = scim_version + 1, updated_at = now()
       where ${CURRENT} and id = $2 and status = 'suspended' returning ${MEMBER}`,
      [teamId, id],
    );
    return row;
  },
};
