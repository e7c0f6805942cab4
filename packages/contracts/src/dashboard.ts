import { z } from 'zod';
import { RULES } from './access.ts';
import { defineEndpoint } from './endpoint.ts';

const Empty = z.object({}).passthrough();

/** The dashboard (spec §2 Dashboard, §3 Notification / Dashboard stats, §4 Trial banner) and console analytics. */

export const Notification = z.object({
  /**
   * `trial` while a family is on a trial; `grace` while an invoice is overdue (the grace period);
   * `ended` once the subscription has ended; null when there is nothing to say.
   */
  code: z.enum(['trial', 'grace', 'ended']).nullable(),
  /**
   * Days from today to the day the notice is about: the trial's end, the grace period's end, or the
   * day the subscription ended (negative once past; null when that day is not known, a refund).
   */
  days_left: z.number().int().nullable(),
  notification: z.string().nullable(),
});
export type Notification = z.infer<typeof Notification>;

export const notificationEndpoint = defineEndpoint({
  name: 'notification',
  program: 'server',
  method: 'POST',
  path: '/organization/notification/',
  auth: 'session',
  access: RULES.dashboard,
  summary:
    "The team's notice for the dashboard: a family's trial days left (negative once expired), a grace period's days left, or the day the subscription ended.",
  input: Empty,
  output: Notification,
});

export const ActivityStats = z.object({
  active_members: z.number().int(),
  inactive_members: z.number().int(),
  unlicensed_members: z.number().int(),
  unresponsive_members: z.number().int(),
});
export type ActivityStats = z.infer<typeof ActivityStats>;

export const dashboardActivityEndpoint = defineEndpoint({
  name: 'dashboardActivity',
  program: 'server',
  method: 'POST',
  path: '/api/v1/dashboard/stats/activity/',
  auth: 'session',
  access: RULES.dashboard,
  summary: 'Current members by app usage, and members without a licence.',
  input: Empty,
  output: ActivityStats,
});

export const ProvisioningEntry = z.object({
  /** The month's first day, epoch milliseconds (UTC). */
  date: z.number().int(),
  /** `01`–`12`. */
  month: z.string(),
  year: z.number().int(),
  onboarded: z.number().int(),
  deboarded: z.number().int(),
});
export type ProvisioningEntry = z.infer<typeof ProvisioningEntry>;

export const dashboardProvisioningEndpoint = defineEndpoint({
  name: 'dashboardProvisioning',
  program: 'server',
  method: 'POST',
  path: '/api/v1/dashboard/stats/provisioning/data/',
  auth: 'session',
  access: RULES.dashboard,
  summary: 'Members onboarded and deboarded in each of the last 12 months, oldest first.',
  input: Empty,
  output: z.object({ data: z.array(ProvisioningEntry) }),
});

export const LicenceSummary = z.object({
  active_subscriptions: z.number().int(),
  /** -1 means unlimited. */
  total_subscriptions: z.number().int(),
});
export type LicenceSummary = z.infer<typeof LicenceSummary>;

export const licenceSummaryEndpoint = defineEndpoint({
  name: 'licenceSummary',
  program: 'server',
  method: 'POST',
  path: '/api/v1/dashboard/stats/licence/summary/',
  auth: 'session',
  access: RULES.dashboard,
  summary: 'Licences in use and licences bought (-1 unlimited).',
  input: Empty,
  output: LicenceSummary,
});

export const analyticsEventEndpoint = defineEndpoint({
  name: 'analyticsEvent',
  program: 'server',
  method: 'POST',
  path: '/api/v1/admin/console/analytics/events/add/',
  auth: 'session',
  access: RULES.anyAdmin,
  summary: 'Record a console interaction (which control, on which screen) for product analytics.',
  input: z.object({
    interaction_type: z.string().trim().min(1).max(50),
    object: z.string().trim().min(1).max(100),
    section: z.string().trim().min(1).max(50),
  }),
  output: z.object({ code: z.literal('recorded') }),
});
