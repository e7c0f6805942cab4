import type { dashboardProvisioningEndpoint, EndpointOutput, Notification } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { membersRepository } from '../members/index.ts';
import { lockLicences } from '../team/index.ts';
import { dashboardRepository as repo } from './dashboard.repository.ts';

const DAY_MS = 86_400_000;

/** Days from today (UTC) to `validTill` (YYYY-MM-DD): 0 on the last day, negative once past. */
export function daysLeft(validTill: string, now = new Date()): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((Date.parse(`${validTill}T00:00:00Z`) - today) / DAY_MS);
}

/** The dashboard: the trial notice, the member counts the members feature keeps, and console analytics. */
export function createDashboardService(db: Db) {
  return {
    notification(caller: Caller): Notification {
      // Spec §2: the trial banner and popup are for family teams.
      if (caller.team.bill_state !== 'trial' || caller.team.team_type !== 'family')
        return { code: null, days_left: null, notification: null };
      const days = daysLeft(caller.team.valid_till);
      const notification =
        days < 0 ? 'Your trial has expired.' : days === 0 ? 'Your trial expires today.' : `Your trial ends in ${days} days.`;
      return { code: 'trial', days_left: days, notification };
    },

    activity: (caller: Caller) => membersRepository.activity(db, caller.team.id),

    async provisioning(caller: Caller): Promise<EndpointOutput<typeof dashboardProvisioningEndpoint>> {
      return { data: (await membersRepository.provisioning(db, caller.team.id)).map((r) => ({ ...r, date: Number(r.date) })) };
    },

    async licenceSummary(caller: Caller) {
      const { total, used } = await lockLicences(db, caller.team.id);
      return { active_subscriptions: used, total_subscriptions: total };
    },

    async analytics(caller: Caller, e: { interaction_type: string; object: string; section: string }) {
      await repo.recordAnalytics(db, caller.team.id, caller.userId, e);
      return { code: 'recorded' as const };
    },
  };
}
