import {
  BILL_FREQUENCIES,
  BILL_STATE_DISPLAY,
  PLAN_TYPES,
  type Plan,
  planSku,
  type Subscription,
  savingPlanOf,
  yearlySaving,
} from '@latchkey/contracts';
import type { Caller } from '../../http/caller.ts';
import { billingRepository as repo } from './billing.repository.ts';
import { type BillingContext, isManaged, loadSubscription, planUnit } from './billing-context.ts';
import { toMoney } from './proration.ts';

/** The team's subscription as the billing screen shows it. */
export async function viewSubscription({ db, invoicePaidBy }: BillingContext, caller: Caller): Promise<Subscription> {
  const s = await loadSubscription(db, caller.team.id);
  const used = await repo.usedLicences(db, s.team_id);
  return {
    state: s.bill_state,
    display_state: BILL_STATE_DISPLAY[s.bill_state] ?? 'ended',
    plan: s.plan,
    plan_duration: s.plan_duration,
    plan_id: planSku(s.plan, s.plan_duration),
    bill_type: s.bill_type,
    purchase_partner: s.purchase_partner,
    managed: isManaged(s),
    term_start: s.term_start,
    bill_end_date: s.bill_end_date,
    grace_until: s.grace_until,
    billing_email: s.billing_email,
    autorenew: s.autorenew,
    currency: s.currency,
    total_license: s.total_licences,
    licenses_in_use: used,
    licenses_available: s.total_licences < 0 ? null : Math.max(0, s.total_licences - used),
    unit_price: toMoney(s.unit_price_cents),
    licenses_on_order: await repo.licencesOnOrder(db, s.team_id),
    invoice_paid_by: invoicePaidBy,
  };
}

/** Every plan and billing frequency with its price in the team's currency. */
export async function listPlans({ db }: BillingContext, caller: Caller): Promise<{ currency: string; plans: Plan[] }> {
  const s = await loadSubscription(db, caller.team.id);
  const plans = PLAN_TYPES.flatMap((plan) =>
    BILL_FREQUENCIES.map((frequency) => {
      const id = planSku(plan, frequency);
      const price = toMoney(planUnit(plan, frequency));
      return {
        id,
        planType: plan,
        billFrequency: frequency,
        price,
        yearly_saving: frequency === '12' ? yearlySaving(toMoney(planUnit(plan, '1')), price) : null,
        saving_plan_id: savingPlanOf(id),
      };
    }),
  );
  return { currency: s.currency, plans };
}
