import { AppError } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { billingRepository as repo } from './billing.repository.ts';
import { assertPurchasable, type BillingContext, loadSubscription } from './billing-context.ts';

/** Spec §5: a removal never goes below the licences in use; then the current count is kept. */
export function licencesAfterRemoval(total: number, used: number, quantity: number): number {
  return total - used - quantity;
}

/** Removes unused licences at once, without an invoice. */
export async function removeLicences({ db }: BillingContext, caller: Caller, quantity: number) {
  return db.transaction(async (tx) => {
    const s = await loadSubscription(tx, caller.team.id, true);
    assertPurchasable(s);
    if (s.total_licences < 0) throw new AppError('licences_unlimited', 'This subscription has unlimited licences.');
    const used = await repo.usedLicences(tx, s.team_id);
    const after = licencesAfterRemoval(s.total_licences, used, quantity);
    if (after < 0) {
      throw new AppError(
        'licence_removal_below_in_use',
        `${used} licences are in use: at most ${Math.max(0, s.total_licences - used)} can be removed.`,
      ).shows('billing.errors.below_in_use', { used, max: Math.max(0, s.total_licences - used) });
    }
    const total = s.total_licences - quantity;
    await repo.setTotalLicences(tx, s.team_id, total);
    await repo.recordEvent(tx, s.team_id, caller.userId, 'billing_licenses_removed', caller.email, { quantity, total });
    return { code: 'updated' as const, total_license: total, available_license_after_removal: after };
  });
}
