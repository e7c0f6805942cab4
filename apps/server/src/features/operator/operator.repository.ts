import type { TeamType } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

/** The operator's reads and writes that no console call makes: a new team, a whole team's export. */
export const operatorRepository = {
  async createTeam(
    q: Queryable,
    t: { slug: string; name: string; teamType: TeamType; organizationType: string; validTill: string },
  ): Promise<string | undefined> {
    const [row] = await q.query<{ id: string }>(
      `insert into teams (slug, name, team_type, organization_type, valid_till) values ($1, $2, $3, $4, $5)
       on conflict (slug) do nothing returning id`,
      [t.slug, t.name, t.teamType, t.organizationType, t.validTill],
    );
    return row?.id;
  },

  async team(q: Queryable, teamId: string) {
    const [row] = await q.query(
      `select slug, name, team_type, organization_type, bill_state, bill_type, business_cloud, purchase_partner,
        to_char(started_on, 'YYYY-MM-DD') as started_on, to_char(valid_till, 'YYYY-MM-DD') as valid_till,
        onboarding_wizard, created_at
       from teams where id = $1`,
      [teamId],
    );
    return row;
  },

  /** Administrators without anything secret: no password hash, authenticator or codes, only whether they are set. */
  async admins(q: Queryable, teamId: string) {
    return q.query(
      `select u.email, u.name, ta.scopes, u.password_hash is not null as has_password,
        u.totp_secret is not null as has_authenticator
       from team_admins ta join users u on u.id = ta.user_id
       where ta.team_id = $1 and cardinality(ta.scopes) > 0 order by u.email`,
      [teamId],
    );
  },

  async groups(q: Queryable, teamId: string) {
    return q.query(
      `select g.name, gp.policy_json as policy, gp.not_enforced_json as not_enforced,
        coalesce((select array_agg(m.email order by m.email) from group_members gm join members m on m.id = gm.member_id
          where gm.group_id = g.id), '{}') as members
       from groups g left join group_policies gp on gp.group_id = g.id
       where g.team_id = $1 order by g.name`,
      [teamId],
    );
  },

  async teamPolicy(q: Queryable, teamId: string) {
    const [row] = await q.query<{ policy: unknown }>('select policy_json as policy from team_policies where team_id = $1', [
      teamId,
    ]);
    return row?.policy ?? {};
  },

  /** One page of members after `afterEmail`, by email: a large team is read and written in pages. */
  async membersPage(q: Queryable, teamId: string, afterEmail: string, limit: number) {
    return q.query<{ email: string }>(
      `select email, name, licensed, usage, onboarded_at, deboarded_at, last_active_at
       from members where team_id = $1 and email > $2 order by email limit $3`,
      [teamId, afterEmail, limit],
    );
  },
};
