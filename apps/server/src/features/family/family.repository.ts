import type { BenefitGrantType } from '@latchkey/contracts';
import type { Queryable } from '@latchkey/runtime';

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

  /** The ids of the groups the assignment names. */
  async groupIds(q: Queryable, teamId: string): Promise<string[]> {
    const rows = await q.query<{ group_id: string }>('select group_id from family_benefit_groups where team_id = $1', [teamId]);
    return rows.map((r) => r.group_id);
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
};
