import type { BenefitGrantType } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

interface BenefitGroupRow {
  id: string;
  name: string;
}

export const familyRepository = {
  /** The team's assignment, locked for a change when `lock`. */
  async grantType(q: Queryable, teamId: string, lock = false): Promise<BenefitGrantType> {
    if (lock) {
      // One row per team, created on first use: two changes at once queue on it.
      await q.query('insert into family_benefits (team_id) values ($1) on conflict (team_id) do nothing', [teamId]);
    }
    const [row] = await q.query<{ grant_type: BenefitGrantType }>(
      `select grant_type from family_benefits where team_id = $1${lock ? ' for update' : ''}`,
      [teamId],
    );
    return row?.grant_type ?? 'none';
  },

  async groups(q: Queryable, teamId: string): Promise<BenefitGroupRow[]> {
    return q.query<BenefitGroupRow>(
      `select g.id, g.name from family_benefit_groups b join groups g on g.id = b.group_id
       where b.team_id = $1 order by lower(g.name), g.id`,
      [teamId],
    );
  },

  /** The team's groups among these ids. */
  async existingGroups(q: Queryable, teamId: string, ids: string[]): Promise<BenefitGroupRow[]> {
    return q.query<BenefitGroupRow>('select id, name from groups where team_id = $1 and id = any($2::uuid[])', [teamId, ids]);
  },

  async save(q: Queryable, teamId: string, grantType: BenefitGrantType, groupIds: string[]): Promise<void> {
    await q.query('update family_benefits set grant_type = $2, updated_at = now() where team_id = $1', [teamId, grantType]);
    await q.query('delete from family_benefit_groups where team_id = $1', [teamId]);
    if (groupIds.length > 0) {
      await q.query('insert into family_benefit_groups (team_id, group_id) select $1, g from unnest($2::uuid[]) as g', [
        teamId,
        groupIds,
      ]);
    }
  },

  /**
   * Gives the benefit to the current members the assignment names and takes it from the others;
   * returns who gained and who lost it.
   */
  async applyToMembers(q: Queryable, teamId: string): Promise<{ granted: string[]; removed: string[] }> {
    const entitled = `select m.id from members m join family_benefits b on b.team_id = m.team_id
      where m.team_id = $1 and m.deboarded_at is null and (
        b.grant_type = 'all' or (b.grant_type = 'groups' and exists (
          select 1 from group_members gm join family_benefit_groups fg on fg.group_id = gm.group_id
          where gm.member_id = m.id and fg.team_id = m.team_id)))`;
    const granted = await q.query<{ email: string }>(
      `update members set family_benefit_since = now()
       where team_id = $1 and family_benefit_since is null and id in (${entitled}) returning email`,
      [teamId],
    );
    const removed = await q.query<{ email: string }>(
      `update members set family_benefit_since = null
       where team_id = $1 and family_benefit_since is not null and id not in (${entitled}) returning email`,
      [teamId],
    );
    return { granted: granted.map((r) => r.email), removed: removed.map((r) => r.email) };
  },

  async holders(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>(
      'select count(*)::int as n from members where team_id = $1 and deboarded_at is null and family_benefit_since is not null',
      [teamId],
    );
    return row?.n ?? 0;
  },

  async holderEmails(q: Queryable, teamId: string): Promise<string[]> {
    const rows = await q.query<{ email: string }>(
      'select email from members where team_id = $1 and family_benefit_since is not null order by email',
      [teamId],
    );
    return rows.map((r) => r.email);
  },
};
