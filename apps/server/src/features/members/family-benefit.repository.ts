// Who holds the family benefit (members.family_benefit_since); features/family decides who should.
import type { Queryable } from '@latchkey/runtime';

export const familyBenefitRepository = {
  /**
   * Gives the benefit to the team's current members that are `entitled` (all of them, or those
   * ids) and takes it from everyone else; returns who gained and who lost it.
   */
  async apply(
    q: Queryable,
    teamId: string,
    entitled: 'all' | readonly string[],
  ): Promise<{ granted: string[]; removed: string[] }> {
    const all = entitled === 'all';
    const ids = all ? [] : entitled;
    const isEntitled = 'deboarded_at is null and ($2::boolean or id = any($3::uuid[]))';
    const granted = await q.query<{ email: string }>(
      `update members set family_benefit_since = now()
       where team_id = $1 and family_benefit_since is null and ${isEntitled} returning email`,
      [teamId, all, ids],
    );
    const removed = await q.query<{ email: string }>(
      `update members set family_benefit_since = null
       where team_id = $1 and family_benefit_since is not null and not (${isEntitled}) returning email`,
      [teamId, all, ids],
    );
    return { granted: granted.map((r) => r.email), removed: removed.map((r) => r.email) };
  },

  /** How many current members hold it. */
  async holders(q: Queryable, teamId: string): Promise<number> {
    const [row] = await q.query<{ n: number }>(
      'select count(*)::int as n from members where team_id = $1 and deboarded_at is null and family_benefit_since is not null',
      [teamId],
    );
    return row?.n ?? 0;
  },
};
