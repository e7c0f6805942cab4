import { Readable } from 'node:stream';
import {
  billingAutorenewUpdateEndpoint,
  billingEmailUpdateEndpoint,
  billingInvoicePaidEndpoint,
  billingInvoicePdfEndpoint,
  billingInvoicesEndpoint,
  billingLicenceAddEndpoint,
  billingLicenceQuoteEndpoint,
  billingLicenceRemoveEndpoint,
  billingPlanChangeEndpoint,
  billingPlanQuoteEndpoint,
  billingPlansEndpoint,
  billingSubscriptionEndpoint,
  fastspringWebhookEndpoint,
} from '@latchkey/contracts';
import type { Db, Jobs, Router } from '@latchkey/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Guard, requireCaller } from '../../http/caller.ts';
import type { Approvals } from '../approvals/index.ts';
import { type BillingDeps, createBillingService } from './billing.service.ts';

const rawBodies = new WeakMap<FastifyRequest, Buffer>();
const SWEEP_QUEUE = 'billing-sweep';
const SWEEP_EVERY_SECONDS = 3600;

/** Billing calls (super admin only, by the contracts' rule), FastSpring's webhook and the billing schedule. */
export function billingRoutes(
  app: FastifyInstance,
  router: Router,
  guard: Guard,
  db: Db,
  jobs: Jobs,
  deps: BillingDeps,
  approvals: Approvals,
) {
  const billing = createBillingService(db, deps);
  const inDb = (q: Db) => (q === db ? billing : createBillingService(q, deps));
  // Under four-eyes approval: licences removed from the renewal, and a plan change.
  const removeLicences = approvals.approvable(billingLicenceRemoveEndpoint, 'billing.licences_removed', {
    run: (input, caller, q) => inDb(q).removeLicences(caller, input.quantity),
    describe: async (input) => ({ summary: `Remove ${input.quantity} licences from the next renewal` }),
  });
  const changePlan = approvals.approvable(billingPlanChangeEndpoint, 'billing.plan', {
    run: (input, caller, q) => inDb(q).changePlan(caller, input.plan_id),
    describe: async (input) => ({ summary: `Change the plan to ${input.plan_id}` }),
  });

  // The webhook's signature is over the bytes sent: keep them before the JSON parser reads them.
  app.addHook('preParsing', async (request, _reply, payload) => {
    if (request.routeOptions.url !== fastspringWebhookEndpoint.path) return payload;
    const chunks: Buffer[] = [];
    for await (const chunk of payload) chunks.push(Buffer.from(chunk as Buffer));
    const raw = Buffer.concat(chunks);
    rawBodies.set(request, raw);
    return Readable.from([raw]);
  });

  // The schedule: one run an hour, whichever instance takes it; each run queues the next.
  const hourKey = (at: number) => `${SWEEP_QUEUE}:${Math.floor(at / (SWEEP_EVERY_SECONDS * 1000))}`;
  const sweep = jobs.define<{ at: number }>(
    SWEEP_QUEUE,
    async () => {
      await billing.sweep();
      await sweep.enqueue(
        db,
        { at: Date.now() },
        { key: hourKey(Date.now() + SWEEP_EVERY_SECONDS * 1000), delaySeconds: SWEEP_EVERY_SECONDS },
      );
    },
    { retryLimit: 3, expireInSeconds: 300 },
  );

  router.handle(billingSubscriptionEndpoint, guard, ({ ctx }) => billing.subscription(requireCaller(ctx)));
  router.handle(billingPlansEndpoint, guard, ({ ctx }) => billing.plans(requireCaller(ctx)));
  router.handle(billingLicenceQuoteEndpoint, guard, ({ ctx, input }) => billing.licenceQuote(requireCaller(ctx), input.quantity));
  router.handle(billingLicenceAddEndpoint, guard, ({ ctx, input }) => billing.addLicences(requireCaller(ctx), input.quantity));
  router.handle(billingLicenceRemoveEndpoint, guard, ({ ctx, input }) => removeLicences(requireCaller(ctx), input));
  router.handle(billingPlanQuoteEndpoint, guard, ({ ctx, input }) => billing.planQuote(requireCaller(ctx), input.plan_id));
  router.handle(billingPlanChangeEndpoint, guard, ({ ctx, input }) => changePlan(requireCaller(ctx), input));
  router.handle(billingEmailUpdateEndpoint, guard, ({ ctx, input }) =>
    billing.updateEmail(requireCaller(ctx), input.billing_email),
  );
  router.handle(billingAutorenewUpdateEndpoint, guard, ({ ctx, input }) =>
    billing.updateAutorenew(requireCaller(ctx), input.autorenew),
  );
  router.handle(billingInvoicesEndpoint, guard, ({ ctx, input }) =>
    billing.invoices(requireCaller(ctx), input.page, input.page_size),
  );
  router.handle(billingInvoicePdfEndpoint, guard, ({ ctx, input }) => billing.invoicePdf(requireCaller(ctx), input.id));
  router.handle(billingInvoicePaidEndpoint, guard, ({ ctx, input }) => billing.markPaid(requireCaller(ctx), input.id));
  // FastSpring's own credential: the signature, checked before the body is read as input.
  const signed = async (request: FastifyRequest) => {
    const signature = request.headers['x-fs-signature'];
    billing.verifySignature(rawBodies.get(request), typeof signature === 'string' ? signature : undefined);
    return null;
  };
  router.handle(fastspringWebhookEndpoint, signed, ({ input }) => billing.fastSpringEvents(input.events));

  return {
    /** After the job queue started: the first run now (once for all instances this hour). */
    startSchedule: () => sweep.enqueue(db, { at: Date.now() }, { key: hourKey(Date.now()) }),
  };
}
