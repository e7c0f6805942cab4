import type { Queryable } from '@latchkey/runtime';
import { billingRepository as repo } from './billing.repository.ts';

/** The days a subscription's notice is about: when its grace period ends and when its term ends (null: no subscription row yet). */
export async function subscriptionDays(
  q: Queryable,
  teamId: string,
): Promise<{ grace_until: string | null; bill_end_date: string } | null> {
  const row = await repo.find(q, teamId);
  return row ? { grace_until: row.grace_until, bill_end_date: row.bill_end_date } : null;
}
