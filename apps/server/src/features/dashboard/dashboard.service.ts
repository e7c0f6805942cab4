import {
  BILL_STATE_DISPLAY,
  type BillState,
  type dashboardProvisioningEndpoint,
  type EndpointOutput,
  type Notification,
} from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { subscriptionDays } from '../billing/index.ts';
import { membersRepository } from '../members/index.ts';
import { lockLicences } from '../team/index.ts';
import { dashboardRepository as repo } from './dashboard.repository.ts';

const DAY_MS = 86_400_000;

/** Days from today (UTC) to `validTill` (YYYY-MM-DD): 0 on the last day, negative once past. */
export function daysLeft(validTill: string, now = new Date()): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((Date.parse(`${validTill}T00:00:00Z`) - today) / DAY_MS);
}

const NO_NOTICE: Notification = { code: null, days_left: null, notification: null };

/** The dashboard: the trial notice, the member counts the members feature keeps, and console analytics. */
export function createDashboardService(db: Db) {
  return {
    async notification(caller: Caller): Promise<Notification> {
      const { team } = caller;
      if (team.bill_state === 'trial') {
        // Spec §2: the trial banner and popup are for family teams.
        if (team.team_type !== 'family') return NO_NOTICE;
        const days = daysLeft(team.valid_till);
        const notification =
          days < 0 ? 'Your trial has expired.' : days === 0 ? 'Your trial expires today.' : `Your trial ends in ${days} days.`;
        return { code: 'trial', days_left: days, notification };
      }
      // A subscription in trouble shows on every admin's dashboard, not only on the billing screen.
      const display = BILL_STATE_DISPLAY[team.bill_state as BillState];
      if (display !== 'grace' && display !== 'ended') return NO_NOTICE;
      const days = await subscriptionDays(db, team.id);
      if (display === 'grace') {
        const left = daysLeft(days?.grace_until ?? team.valid_till);
        return { code: 'grace', days_left: left, notification: `A payment is overdue: the grace period ends in ${left} days.` };
      }
      // An expired term ended on its renewal day; a refund ends it on a day the team does not keep.
      const endedOn = team.bill_state === 'expired' ? daysLeft(days?.bill_end_date ?? team.valid_till) : null;
      return { code: 'ended', days_left: endedOn, notification: 'The subscription has ended.' };
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
