import type { Caller } from '../../http/caller.ts';
import { billingRepository as repo } from './billing.repository.ts';
import { assertPurchasable, type BillingContext, loadSubscription } from './billing-context.ts';

/** Sets the address invoices go to. */
export async function updateBillingEmail({ db }: BillingContext, caller: Caller, email: string) {
  await db.transaction(async (tx) => {
    const s = await loadSubscription(tx, caller.team.id, true);
    await repo.updateSubscription(tx, s.team_id, { billing_email: email });
    await repo.recordEvent(tx, s.team_id, caller.userId, 'billing_email_changed', caller.email, {
      from: s.billing_email,
      to: email,
    });
  });
  return { code: 'updated' as const, billing_email: email };
}

/** Turns automatic renewal on or off (not for a managed subscription). */
export async function updateAutorenew({ db }: BillingContext, caller: Caller, autorenew: boolean) {
  await db.transaction(async (tx) => {
    const s = await loadSubscription(tx, caller.team.id, true);
    assertPurchasable(s);
    await repo.updateSubscription(tx, s.team_id, { autorenew });
    await repo.recordEvent(tx, s.team_id, caller.userId, 'billing_autorenew_changed', caller.email, { autorenew });
  });
  return { code: 'updated' as const, autorenew };
}
