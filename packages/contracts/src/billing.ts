import { z } from 'zod';
import { RULES } from './access.ts';
import { Email } from './auth.ts';
import {
  BILL_FREQUENCIES,
  BILL_STATE_DISPLAYS,
  BILL_STATES,
  BILL_TYPES,
  INVOICE_PAYERS,
  INVOICE_STATES,
  INVOICES_PAGE_SIZE,
  PLAN_TYPES,
  PURCHASE_PARTNERS,
} from './billing-constants.ts';
import { MAX_LICENCES } from './constants.ts';
import { defineEndpoint } from './endpoint.ts';

export * from './billing-constants.ts';

const Empty = z.object({}).passthrough();
const Currency = z.string().regex(/^[A-Z]{3}$/);
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** Money in the team's currency, 2 decimals (spec §9). */
const Money = z.number();

// ── Subscription (spec §3 Subscription, §4 Subscription display) ─────────────────────────────

export const Subscription = z.object({
  /** The team's bill state: billed, pending (grace period), expired, refunded or trial. */
  state: z.enum(BILL_STATES),
  /** How the console shows `state` (spec §4). */
  display_state: z.enum(BILL_STATE_DISPLAYS),
  plan: z.enum(PLAN_TYPES),
  plan_duration: z.enum(BILL_FREQUENCIES),
  /** The plan's SKU (`standard-1`). */
  plan_id: z.string(),
  bill_type: z.enum(BILL_TYPES),
  purchase_partner: z.enum(PURCHASE_PARTNERS).nullable(),
  /** True for reseller and benefit teams: someone else sells this subscription; no purchase actions. */
  managed: z.boolean(),
  term_start: Day,
  /** The renewal date: the term ends the day before. */
  bill_end_date: Day,
  /** The last day of the grace period while `pending`. */
  grace_until: Day.nullable(),
  billing_email: z.string(),
  autorenew: z.boolean(),
  currency: Currency,
  /** -1 means unlimited (shown as a dash). */
  total_license: z.number().int(),
  licenses_in_use: z.number().int(),
  /** Null when unlimited. */
  licenses_available: z.number().int().nullable(),
  /** The price of one licence for one term of the plan. */
  unit_price: Money,
  /** Licences ordered and waiting for their invoice to be paid. */
  licenses_on_order: z.number().int(),
  /** Who may mark a manual invoice paid: the super admin here, or only the server's operator (CLI). */
  invoice_paid_by: z.enum(INVOICE_PAYERS),
});
export type Subscription = z.infer<typeof Subscription>;

export const billingSubscriptionEndpoint = defineEndpoint({
  name: 'billingSubscription',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/subscription/',
  auth: 'session',
  access: RULES.billing,
  summary: "The team's subscription: plan, state, renewal, billing email, licences bought, in use and available.",
  input: Empty,
  output: Subscription,
});

// ── Plans (spec §3 Plan, §4 saving plan, §9 order, prices and saving) ─────────────────────────

export const Plan = z.object({
  /** The SKU. */
  id: z.string(),
  planType: z.enum(PLAN_TYPES),
  billFrequency: z.enum(BILL_FREQUENCIES),
  /** One licence for one term, in the team's currency. */
  price: Money,
  /** Yearly plans: 12 × the monthly price − this price (spec §9); null for monthly plans. */
  yearly_saving: Money.nullable(),
  /** Monthly plans: the SKU of the yearly counterpart (spec §4 saving plan). */
  saving_plan_id: z.string().nullable(),
});
export type Plan = z.infer<typeof Plan>;

export const billingPlansEndpoint = defineEndpoint({
  name: 'billingPlans',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/plans/',
  auth: 'session',
  access: RULES.billing,
  summary: 'The plans in spec order (starter, standard, enterprise; monthly then yearly) with prices in the team currency.',
  input: Empty,
  output: z.object({ currency: Currency, plans: z.array(Plan) }),
});

// ── Licences (spec §3 Pro-rated data, §5) ──────────────────────────────────────────────────────

const Quantity = z
  .number()
  .int('The quantity must be a whole number.')
  .min(1, 'The quantity must be at least 1.')
  .max(MAX_LICENCES, `The quantity can be at most ${MAX_LICENCES}.`);

export const ProRated = z.object({
  currency: Currency,
  /** One licence for a whole term. */
  price_per_license: Money,
  /** What the quantity costs for the rest of the current term. */
  pro_rated_price: Money,
  quantity: z.number().int(),
  remaining_days: z.number().int(),
  term_days: z.number().int(),
});
export type ProRated = z.infer<typeof ProRated>;

export const billingLicenceQuoteEndpoint = defineEndpoint({
  name: 'billingLicenceQuote',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/licenses/quote/',
  auth: 'session',
  access: RULES.billing,
  errors: ['billing_managed', 'subscription_ended', 'licence_cap_exceeded', 'licences_unlimited'],
  summary: 'The pro-rated price of adding licences for the rest of the current term.',
  input: z.object({ quantity: Quantity }),
  output: ProRated,
});

/** What an invoice is for, as data: the plan, the licences (null: not counted) and the days it covers, both included. */
export const InvoiceDetail = z.object({
  plan: z.enum(PLAN_TYPES),
  plan_duration: z.enum(BILL_FREQUENCIES),
  licences: z.number().int().nullable(),
  from: Day,
  to: Day,
});
export type InvoiceDetail = z.infer<typeof InvoiceDetail>;

export const Invoice = z.object({
  id: z.string(),
  /** `LK-000042`. */
  number: z.string(),
  kind: z.enum(['licenses', 'plan_change', 'renewal']),
  state: z.enum(INVOICE_STATES),
  provider: z.enum(['manual', 'fastspring']),
  currency: Currency,
  total: Money,
  /** The first line in English, as on the PDF. */
  description: z.string(),
  /** The first line as data, for the console to say in the admin's language; null on invoices made before it was kept. */
  detail: InvoiceDetail.nullable(),
  issued_at: z.string(),
  due_date: Day,
  paid_at: z.string().nullable(),
});
export type Invoice = z.infer<typeof Invoice>;

/** An order's outcome: applied at once, or an invoice to pay first. */
const OrderResult = z.object({
  code: z.enum(['applied', 'invoiced']),
  invoice: Invoice.nullable(),
});

export const billingLicenceAddEndpoint = defineEndpoint({
  name: 'billingLicenceAdd',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/licenses/add/',
  auth: 'session',
  access: RULES.billing,
  errors: ['billing_managed', 'subscription_ended', 'licence_cap_exceeded', 'licences_unlimited'],
  summary: 'Order licences at the pro-rated price: an invoice (manual) applied when paid.',
  input: z.object({ quantity: Quantity }),
  output: OrderResult,
});

export const billingLicenceRemoveEndpoint = defineEndpoint({
  name: 'billingLicenceRemove',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/licenses/remove/',
  auth: 'session',
  access: RULES.billing,
  errors: ['billing_managed', 'licence_removal_below_in_use', 'licences_unlimited', 'approval_required'],
  summary: 'Remove unused licences from the next renewal on; never below the licences in use.',
  input: z.object({ quantity: Quantity }),
  output: z.object({
    code: z.literal('updated'),
    total_license: z.number().int(),
    available_license_after_removal: z.number().int(),
  }),
});

// ── Plan change (spec §4 saving plan) ──────────────────────────────────────────────────────────

export const PlanQuote = z.object({
  currency: Currency,
  from_plan_id: z.string(),
  to_plan_id: z.string(),
  licenses: z.number().int(),
  /** The unused part of the current term, credited. */
  credit: Money,
  /** The new plan for the rest of the term (same frequency) or a whole new term (other frequency, trial). */
  charge: Money,
  /** charge − credit, never below 0. */
  amount_due: Money,
  term_start: Day,
  bill_end_date: Day,
});
export type PlanQuote = z.infer<typeof PlanQuote>;

const PlanId = z.string().regex(/^(starter|standard|enterprise)-(1|12)$/, 'No such plan.');

export const billingPlanQuoteEndpoint = defineEndpoint({
  name: 'billingPlanQuote',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/plan/quote/',
  auth: 'session',
  access: RULES.billing,
  errors: ['billing_managed', 'plan_unchanged', 'licences_unlimited'],
  summary: 'The pro-rated difference of changing to another plan, before confirming.',
  input: z.object({ plan_id: PlanId }),
  output: PlanQuote,
});

export const billingPlanChangeEndpoint = defineEndpoint({
  name: 'billingPlanChange',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/plan/change/',
  auth: 'session',
  access: RULES.billing,
  errors: ['billing_managed', 'plan_unchanged', 'licences_unlimited', 'approval_required'],
  summary: 'Change plan (or convert a trial): applied at once when nothing is due, else invoiced and applied when paid.',
  input: z.object({ plan_id: PlanId }),
  output: OrderResult,
});

// ── Billing email, autorenew ───────────────────────────────────────────────────────────────────

export const billingEmailUpdateEndpoint = defineEndpoint({
  name: 'billingEmailUpdate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/email/update/',
  auth: 'session',
  access: RULES.billing,
  summary: 'Change the address invoices are sent to.',
  input: z.object({ billing_email: Email }),
  output: z.object({ code: z.literal('updated'), billing_email: z.string() }),
});

export const billingAutorenewUpdateEndpoint = defineEndpoint({
  name: 'billingAutorenewUpdate',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/autorenew/update/',
  auth: 'session',
  access: RULES.billing,
  errors: ['billing_managed'],
  summary: 'Turn automatic renewal on or off.',
  input: z.object({ autorenew: z.boolean() }),
  output: z.object({ code: z.literal('updated'), autorenew: z.boolean() }),
});

// ── Invoices ─────────────────────────────────────────────────────────────────────────────────

export const billingInvoicesEndpoint = defineEndpoint({
  name: 'billingInvoices',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/invoices/',
  auth: 'session',
  access: RULES.billing,
  summary: "The team's invoices, newest first.",
  queryFields: ['page', 'page_size'],
  input: z.object({
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(INVOICES_PAGE_SIZE),
  }),
  output: z.object({ results: z.array(Invoice), total: z.number().int(), pages: z.number().int() }),
});

export const billingInvoicePdfEndpoint = defineEndpoint({
  name: 'billingInvoicePdf',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/invoice/pdf/',
  auth: 'session',
  access: RULES.billing,
  errors: ['invoice_not_found'],
  summary: 'One invoice as a PDF document (base64), generated on the server.',
  input: z.object({ id: z.string().uuid('No such invoice.') }),
  output: z.object({ filename: z.string(), content_type: z.literal('application/pdf'), pdf_base64: z.string() }),
});

export const billingInvoicePaidEndpoint = defineEndpoint({
  name: 'billingInvoicePaid',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/invoice/paid/',
  auth: 'session',
  access: RULES.billing,
  errors: ['invoice_not_found', 'invoice_not_open', 'billing_managed', 'licence_cap_exceeded'],
  summary:
    "Manual invoicing (self-hosted): the super admin records a manual invoice as paid, which applies its order. The operator CLI does the same (`invoice-paid`). With the server's INVOICE_PAID_BY=operator (a hosted licence server) only the operator may: this call answers 403 forbidden.",
  input: z.object({ id: z.string().uuid('No such invoice.') }),
  output: z.object({ code: z.literal('applied'), invoice: Invoice }),
});

// ── FastSpring webhook (the purchase partner the spec names) ───────────────────────────────────

export const FastSpringEvent = z.object({
  id: z.string().min(1).max(200),
  type: z.string().max(100),
  live: z.boolean().optional(),
  created: z.number().optional(),
  data: z.record(z.string(), z.unknown()),
});

export const fastspringWebhookEndpoint = defineEndpoint({
  name: 'fastspringWebhook',
  program: 'server',
  method: 'POST',
  path: '/api/v1/billing/fastspring/webhook/',
  auth: 'public',
  errors: ['signature_invalid'],
  summary:
    "FastSpring's webhook: events signed with HMAC-SHA256 over the raw body (X-FS-Signature, base64). Each event is applied once, by its id.",
  input: z.object({ events: z.array(FastSpringEvent).max(100) }),
  output: z.object({ processed: z.array(z.string()), duplicates: z.array(z.string()), ignored: z.array(z.string()) }),
});
