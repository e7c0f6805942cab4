import { GRACE_DAYS, RENEWAL_NOTICE_DAYS } from '@latchkey/contracts';
import { billingRepository as repo } from './billing.repository.ts';
import { type BillingContext, billTo, loadSubscription, planName, pricedLicences } from './billing-context.ts';
import { invoiceNumber } from './invoice-pdf.ts';
import { addDays, addMonths } from './proration.ts';

/**
 * The schedule of manual invoicing, run by the job queue: renewal invoices issued ahead of the
 * renewal date; a team with an invoice unpaid after its due date enters its grace period
 * (pending); after the grace period, or at the end of a term not renewing, it expires.
 */
export async function sweepBilling({ db, today }: BillingContext, day = today()) {
  const outcome = { renewals: 0, overdue: 0, expired: 0 };
  for (const teamId of await repo.renewalsDue(db, addDays(day, RENEWAL_NOTICE_DAYS))) {
    await db.transaction(async (tx) => {
      const s = await loadSubscription(tx, teamId, true);
      const licences = await pricedLicences(tx, s);
      const next = addMonths(s.bill_end_date, Number(s.plan_duration));
      const amount = s.unit_price_cents * licences;
      const made = await repo.insertInvoice(tx, {
        team_id: teamId,
        kind: 'renewal',
        provider: 'manual',
        currency: s.currency,
        lines: [
          {
            description: `Renewal, ${planName(s.plan, s.plan_duration)} plan, ${licences} licence${licences === 1 ? '' : 's'}, ${s.bill_end_date} to ${addDays(next, -1)}`,
            detail: { plan: s.plan, plan_duration: s.plan_duration, licences, from: s.bill_end_date, to: addDays(next, -1) },
            quantity: licences,
            unit_cents: s.unit_price_cents,
            amount_cents: amount,
          },
        ],
        total_cents: amount,
        change: { renew_from: s.bill_end_date },
        bill_to: billTo(s),
        due_date: s.bill_end_date,
      });
      if (made) {
        outcome.renewals++;
        await repo.recordEvent(tx, teamId, null, 'billing_renewal_invoiced', s.billing_email, {
          invoice: invoiceNumber(made.number),
        });
      }
    });
  }
  for (const { team_id, due_date } of await repo.overdueTeams(db, day)) {
    await db.transaction(async (tx) => {
      const s = await loadSubscription(tx, team_id, true);
      if (s.bill_state !== 'billed') return;
      const graceUntil = addDays(due_date, GRACE_DAYS);
      await repo.setTeamBilling(tx, team_id, { bill_state: 'pending' });
      await repo.updateSubscription(tx, team_id, { grace_until: graceUntil });
      await repo.recordEvent(tx, team_id, null, 'billing_state_changed', s.billing_email, {
        from: 'billed',
        to: 'pending',
        grace_until: graceUntil,
      });
      outcome.overdue++;
    });
  }
  for (const teamId of await repo.endedTeams(db, day)) {
    await db.transaction(async (tx) => {
      const s = await loadSubscription(tx, teamId, true);
      if (s.bill_state !== 'pending' && s.bill_state !== 'billed') return;
      await repo.setTeamBilling(tx, teamId, { bill_state: 'expired' });
      await repo.recordEvent(tx, teamId, null, 'billing_state_changed', s.billing_email, {
        from: s.bill_state,
        to: 'expired',
      });
      outcome.expired++;
    });
  }
  return outcome;
}
