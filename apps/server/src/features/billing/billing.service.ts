// The billing service: one command per file in this folder, composed here so routes, the CLI and
// the job queue hold one object.
import type { Db } from '@latchkey/runtime';
import type { Caller } from '../../http/caller.ts';
import { type BillingDeps, billingContext } from './billing-context.ts';
import { updateAutorenew, updateBillingEmail } from './billing-settings.ts';
import { sweepBilling } from './billing-sweep.ts';
import { applyFastSpringEvents, type FastSpringEvent, verifyFastSpringSignature } from './fastspring-webhook.ts';
import { invoicePdf, listInvoices, markInvoicePaid, markInvoicePaidByNumber } from './invoices.ts';
import { addLicences, quoteLicenceAddition } from './licences-add.ts';
import { removeLicences } from './licences-remove.ts';
import { changePlan, quotePlanChangeFor } from './plan-change.ts';
import { listPlans, viewSubscription } from './subscription-view.ts';

export type { BillingDeps } from './billing-context.ts';

export function createBillingService(db: Db, deps: BillingDeps = {}) {
  const ctx = billingContext(db, deps);
  return {
    subscription: (caller: Caller) => viewSubscription(ctx, caller),
    plans: (caller: Caller) => listPlans(ctx, caller),
    licenceQuote: (caller: Caller, quantity: number) => quoteLicenceAddition(ctx, caller, quantity),
    addLicences: (caller: Caller, quantity: number) => addLicences(ctx, caller, quantity),
    removeLicences: (caller: Caller, quantity: number) => removeLicences(ctx, caller, quantity),
    planQuote: (caller: Caller, planId: string) => quotePlanChangeFor(ctx, caller, planId),
    changePlan: (caller: Caller, planId: string) => changePlan(ctx, caller, planId),
    updateEmail: (caller: Caller, email: string) => updateBillingEmail(ctx, caller, email),
    updateAutorenew: (caller: Caller, autorenew: boolean) => updateAutorenew(ctx, caller, autorenew),
    invoices: (caller: Caller, page: number, pageSize: number) => listInvoices(ctx, caller, page, pageSize),
    invoicePdf: (caller: Caller, id: string) => invoicePdf(ctx, caller, id),
    markPaid: (caller: Caller, id: string) => markInvoicePaid(ctx, caller, id),
    markPaidByNumber: (teamSlug: string, number: number) => markInvoicePaidByNumber(ctx, teamSlug, number),
    sweep: (day?: string) => sweepBilling(ctx, day),
    verifySignature: (raw: Buffer | undefined, signature: string | undefined) => verifyFastSpringSignature(ctx, raw, signature),
    fastSpringEvents: (events: FastSpringEvent[]) => applyFastSpringEvents(ctx, events),
  };
}
