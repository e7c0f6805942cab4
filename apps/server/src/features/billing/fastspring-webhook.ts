import { createHmac, timingSafeEqual } from 'node:crypto';
import { type ActionName, GRACE_DAYS, MAX_LICENCES, parseSku, planSku } from '@latchkey/contracts';
import { AppError, type Queryable } from '@latchkey/runtime';
import { billingRepository as repo } from './billing.repository.ts';
import { type BillingContext, billTo, loadSubscription, planName } from './billing-context.ts';
import { payInvoice } from './invoice-payment.ts';
import { invoiceNumber } from './invoice-pdf.ts';
import { addDays, addMonths, PLAN_PRICE_CENTS } from './proration.ts';

/** `subscription.charge.completed` → the action `billing_fastspring_subscription_charge_completed` (each one is in the activity catalogue). */
const fastSpringAction = (type: string) => `billing_fastspring_${type.replaceAll('.', '_')}` as ActionName & `billing_${string}`;

/** One FastSpring webhook event. */
export interface FastSpringEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** FastSpring's signature: base64 HMAC-SHA256 of the raw body with the webhook secret. */
export function verifyFastSpringSignature(
  { fastSpringSecret: secret }: BillingContext,
  raw: Buffer | undefined,
  signature: string | undefined,
): void {
  const refuse = () => new AppError('signature_invalid', 'The webhook signature is missing or wrong.', 401);
  if (!secret || !raw || !signature) throw refuse();
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(signature, 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse();
}

/** FastSpring's events, each applied once (by its id) in its own transaction. */
export async function applyFastSpringEvents(ctx: BillingContext, events: FastSpringEvent[]) {
  const result = { processed: [] as string[], duplicates: [] as string[], ignored: [] as string[] };
  for (const event of events) {
    const outcome = await ctx.db.transaction(async (tx) => {
      const teamId = await fastSpringTeam(tx, event.data);
      const fresh = await repo.recordProviderEvent(tx, {
        provider: 'fastspring',
        event_id: event.id,
        type: event.type,
        team_id: teamId ?? null,
        outcome: teamId ? 'processed' : 'ignored',
      });
      if (!fresh) return 'duplicates' as const;
      if (!teamId) return 'ignored' as const;
      return (await applyFastSpring(ctx, tx, teamId, event)) ? ('processed' as const) : ('ignored' as const);
    });
    result[outcome].push(event.id);
  }
  return result;
}

/** The team an event is about: by the order's team tag, else by FastSpring's subscription id. */
async function fastSpringTeam(tx: Queryable, data: Record<string, unknown>): Promise<string | undefined> {
  const tags = (data.tags ?? {}) as Record<string, unknown>;
  if (typeof tags.team === 'string') return repo.teamIdBySlug(tx, tags.team);
  const sub = typeof data.subscription === 'string' ? data.subscription : (data.subscription as { id?: unknown } | undefined)?.id;
  const id = typeof sub === 'string' ? sub : typeof data.id === 'string' ? data.id : undefined;
  return id ? repo.teamIdByProviderSubscription(tx, id) : undefined;
}

/** Applies one event to the locked subscription; false when it is not one Latchkey acts on. */
async function applyFastSpring(ctx: BillingContext, tx: Queryable, teamId: string, event: FastSpringEvent) {
  const s = await loadSubscription(tx, teamId, true);
  const data = event.data;
  const day = ctx.today();
  const record = (detail: Record<string, unknown>) =>
    repo.recordEvent(tx, teamId, null, fastSpringAction(event.type), s.billing_email, {
      event: event.id,
      ...detail,
    });
  switch (event.type) {
    case 'subscription.activated': {
      const product = typeof data.product === 'string' ? data.product : '';
      const sku = parseSku(product.replace(/^latchkey-/, ''));
      if (!sku) return false;
      const quantity = Math.min(MAX_LICENCES, Math.max(1, Math.trunc(Number(data.quantity) || 1)));
      const currency = typeof data.currency === 'string' && /^[A-Z]{3}$/.test(data.currency) ? data.currency : s.currency;
      const unit = Number.isFinite(Number(data.price))
        ? Math.round(Number(data.price) * 100)
        : PLAN_PRICE_CENTS[sku.plan][sku.frequency];
      const billEnd = addMonths(day, Number(sku.frequency));
      await repo.updateSubscription(tx, teamId, {
        plan: sku.plan,
        plan_duration: sku.frequency,
        term_start: day,
        bill_end_date: billEnd,
        grace_until: null,
        currency,
        unit_price_cents: unit,
        provider_subscription_id: typeof data.id === 'string' ? data.id : null,
        autorenew: data.autoRenew !== false,
      });
      await repo.setTotalLicences(tx, teamId, quantity);
      await repo.setTeamBilling(tx, teamId, {
        bill_state: 'billed',
        bill_type: 'automatic',
        purchase_partner: 'fastspring',
        valid_till: billEnd,
        ...(s.team_type === 'organization' ? { organization_type: sku.plan } : {}),
      });
      await repo.insertInvoice(tx, {
        team_id: teamId,
        kind: 'plan_change',
        state: 'paid',
        provider: 'fastspring',
        provider_ref: event.id,
        currency,
        lines: [
          {
            description: `${planName(sku.plan, sku.frequency)} plan, ${quantity} licence${quantity === 1 ? '' : 's'}, ${day} to ${addDays(billEnd, -1)}`,
            detail: { plan: sku.plan, plan_duration: sku.frequency, licences: quantity, from: day, to: addDays(billEnd, -1) },
            quantity,
            unit_cents: unit,
            amount_cents: unit * quantity,
          },
        ],
        total_cents: unit * quantity,
        change: {
          plan: sku.plan,
          plan_duration: sku.frequency,
          unit_price_cents: unit,
          term_start: day,
          bill_end_date: billEnd,
        },
        bill_to: billTo(s),
        due_date: day,
      });
      await record({ plan: planSku(sku.plan, sku.frequency), quantity });
      return true;
    }
    case 'subscription.charge.completed': {
      const tags = (data.tags ?? {}) as Record<string, unknown>;
      const invoiceId = typeof tags.latchkey_invoice === 'string' ? tags.latchkey_invoice : null;
      if (invoiceId && /^[0-9a-f-]{36}$/i.test(invoiceId)) {
        const open = await repo.invoice(tx, teamId, invoiceId);
        if (open?.state === 'open' && open.provider === 'fastspring') {
          await payInvoice(ctx, tx, teamId, invoiceId, null, event.id);
          await record({ invoice: invoiceNumber(open.number) });
          return true;
        }
      }
      // A renewal charge: the next term.
      const next = addMonths(s.bill_end_date, Number(s.plan_duration));
      const total = Number.isFinite(Number(data.total)) ? Math.max(0, Math.round(Number(data.total) * 100)) : 0;
      await repo.insertInvoice(tx, {
        team_id: teamId,
        kind: 'renewal',
        state: 'paid',
        provider: 'fastspring',
        provider_ref: event.id,
        currency: s.currency,
        lines: [
          {
            description: `Renewal, ${planName(s.plan, s.plan_duration)} plan, ${s.bill_end_date} to ${addDays(next, -1)}`,
            detail: {
              plan: s.plan,
              plan_duration: s.plan_duration,
              licences: null,
              from: s.bill_end_date,
              to: addDays(next, -1),
            },
            quantity: 1,
            unit_cents: total,
            amount_cents: total,
          },
        ],
        total_cents: total,
        change: { renew_from: s.bill_end_date },
        bill_to: billTo(s),
        due_date: day,
      });
      await repo.updateSubscription(tx, teamId, { term_start: s.bill_end_date, bill_end_date: next, grace_until: null });
      await repo.setTeamBilling(tx, teamId, { bill_state: 'billed', valid_till: next });
      await record({ renewed_until: next });
      return true;
    }
    case 'subscription.deactivated':
      await repo.setTeamBilling(tx, teamId, { bill_state: 'expired' });
      await repo.updateSubscription(tx, teamId, { autorenew: false });
      await record({});
      return true;
    case 'subscription.payment.overdue': {
      if (s.bill_state !== 'billed') return true;
      const graceUntil = addDays(day, GRACE_DAYS);
      await repo.setTeamBilling(tx, teamId, { bill_state: 'pending' });
      await repo.updateSubscription(tx, teamId, { grace_until: graceUntil });
      await record({ grace_until: graceUntil });
      return true;
    }
    default:
      return false;
  }
}
