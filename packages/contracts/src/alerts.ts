import { z } from 'zod';
import { RULES } from './access.ts';
import { ALERT_TEMPLATE_KEYS } from './alert-templates.ts';
import { PageInfo, Paging } from './audit.ts';
import { defineEndpoint } from './endpoint.ts';
import { EventFilters, EventRecord } from './eventlogs.ts';
import { WEBHOOK_SIGNING_SECRET_MIN } from './eventlogs-constants.ts';

/**
 * Alert rules on the Hub: a search of the team's event log (the event-log filters), a condition,
 * a cooldown and destinations. The Hub evaluates them as events arrive and keeps each firing with
 * the events that matched. Secrets (a webhook's signing secret, a Slack or Teams address) are
 * never sent back; left empty on an edit they are kept only while the address stays the same.
 */

const TeamSlug = z.string().min(1).max(100);

export const ALERT_GROUP_BY = ['actor', 'ip', 'target'] as const;
export const ALERT_DESTINATION_KINDS = ['email', 'webhook', 'slack', 'teams', 'siem'] as const;
export type AlertDestinationKind = (typeof ALERT_DESTINATION_KINDS)[number];
export const ALERT_RULES_MAX = 100;

export const AlertCondition = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('every') }),
  z.object({
    kind: z.literal('threshold'),
    count: z.number().int().min(2).max(10_000),
    minutes: z.number().int().min(1).max(1_440),
    group_by: z.enum(ALERT_GROUP_BY).nullable().default(null),
  }),
]);
export type AlertCondition = z.input<typeof AlertCondition>;
export type AlertFiltersInput = z.input<typeof EventFilters>;

const HttpsUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => URL.canParse(v) && new URL(v).protocol === 'https:', 'invalid url');
/** Empty on an edit: the stored one is kept (only while the address stays the same). */
const SecretUrl = z.union([HttpsUrl, z.literal('')]).default('');
const DestinationId = z.uuid().optional();

/**
 * A destination as the console sends it. An e-mail goes only to the team's administrators: the Hub
 * asks the licence server (hubAdminsCheck) when the rule is saved and again before each delivery.
 */
export const AlertDestinationInput = z.discriminatedUnion('kind', [
  z.object({ id: DestinationId, kind: z.literal('email'), recipients: z.array(z.email().max(320)).min(1).max(20) }),
  z.object({
    id: DestinationId,
    kind: z.literal('webhook'),
    url: HttpsUrl,
    signing_secret: z.union([z.string().trim().min(WEBHOOK_SIGNING_SECRET_MIN).max(200), z.literal('')]).default(''),
  }),
  z.object({ id: DestinationId, kind: z.literal('slack'), url: SecretUrl }),
  z.object({ id: DestinationId, kind: z.literal('teams'), url: SecretUrl }),
  z.object({ id: DestinationId, kind: z.literal('siem') }),
]);
export type AlertDestinationInput = z.input<typeof AlertDestinationInput>;

/** A destination as the Hub answers it: no secret; Slack and Teams show their host alone. */
export const AlertDestination = z.discriminatedUnion('kind', [
  z.object({ id: z.string(), kind: z.literal('email'), recipients: z.array(z.string()) }),
  z.object({ id: z.string(), kind: z.literal('webhook'), url: z.string(), has_secret: z.boolean() }),
  z.object({ id: z.string(), kind: z.literal('slack'), host: z.string(), has_secret: z.boolean() }),
  z.object({ id: z.string(), kind: z.literal('teams'), host: z.string(), has_secret: z.boolean() }),
  z.object({ id: z.string(), kind: z.literal('siem') }),
]);
export type AlertDestination = z.infer<typeof AlertDestination>;

const RuleFields = z.object({
  name: z.string().trim().min(1, 'this field is required').max(120),
  filters: EventFilters.default(EventFilters.parse({})),
  condition: AlertCondition,
  cooldown_minutes: z.number().int().min(0).max(10_080).default(0),
  destinations: z.array(AlertDestinationInput).min(1).max(10),
  enabled: z.boolean().default(true),
});

export const AlertRule = z.object({
  id: z.string(),
  name: z.string(),
  template: z.string().nullable(),
  filters: z.record(z.string(), z.unknown()),
  condition: z.record(z.string(), z.unknown()),
  cooldown_minutes: z.number().int(),
  destinations: z.array(AlertDestination),
  enabled: z.boolean(),
  created_by: z.string(),
  updated_at: z.string(),
  last_fired_at: z.string().nullable(),
});
export type AlertRule = z.infer<typeof AlertRule>;

export const AlertFiring = z.object({
  id: z.string(),
  group_key: z.string(),
  fired_at: z.string(),
  test: z.boolean(),
  event_count: z.number().int(),
  /** The events that matched (the first 100), oldest first. */
  events: z.array(EventRecord),
});
export type AlertFiring = z.infer<typeof AlertFiring>;

const RuleReply = z.object({ rule: AlertRule });
const ById = z.object({ team_slug: TeamSlug, id: z.uuid() });

export const alertRulesListEndpoint = defineEndpoint({
  name: 'alertRulesList',
  program: 'hub',
  method: 'POST',
  path: '/audit/alerts/rules/',
  auth: 'hubAuth',
  errors: ['service_disabled'],
  access: RULES.eventLogs,
  summary: "The team's alert rules, and the built-in templates not switched on yet.",
  input: z.object({ team_slug: TeamSlug }),
  output: z.object({ rules: z.array(AlertRule), templates: z.array(z.enum(ALERT_TEMPLATE_KEYS)) }),
});

/** What a rule's e-mail recipients can be refused for at save (the licence server decides who is an administrator). */
const RECIPIENT_ERRORS = ['alert_recipient_not_admin', 'alert_recipients_unverifiable', 'alert_email_needs_server'] as const;

export const alertRuleCreateEndpoint = defineEndpoint({
  name: 'alertRuleCreate',
  errors: ['service_disabled', 'not_allowed', ...RECIPIENT_ERRORS],
  program: 'hub',
  method: 'POST',
  path: '/audit/alerts/rules/create/',
  auth: 'hubAuth',
  access: RULES.eventLogs,
  summary: 'Creates an alert rule from a search (the event-log filters), a condition, a cooldown and destinations.',
  input: RuleFields.extend({ team_slug: TeamSlug }),
  output: RuleReply,
});

export const alertRuleUpdateEndpoint = defineEndpoint({
  name: 'alertRuleUpdate',
  errors: ['service_disabled', 'not_found', ...RECIPIENT_ERRORS],
  program: 'hub',
  method: 'POST',
  path: '/audit/alerts/rules/update/',
  auth: 'hubAuth',
  access: RULES.eventLogs,
  summary:
    'Replaces an alert rule. A destination keeps its stored secret when the field is left empty, only while its address stays the same.',
  input: RuleFields.extend({ team_slug: TeamSlug, id: z.uuid() }),
  output: RuleReply,
});

export const alertRuleEnableEndpoint = defineEndpoint({
  name: 'alertRuleEnable',
  errors: ['service_disabled', 'not_found'],
  program: 'hub',
  method: 'POST',
  path: '/audit/alerts/rules/enable/',
  auth: 'hubAuth',
  access: RULES.eventLogs,
  summary: 'Switches an alert rule on or off.',
  input: ById.extend({ enabled: z.boolean() }),
  output: RuleReply,
});

export const alertRuleDeleteEndpoint = defineEndpoint({
  name: 'alertRuleDelete',
  errors: ['service_disabled', 'not_found'],
  program: 'hub',
  method: 'POST',
  path: '/audit/alerts/rules/delete/',
  auth: 'hubAuth',
  access: RULES.eventLogs,
  summary: 'Deletes an alert rule and its firing history.',
  input: ById,
  output: z.object({ deleted: z.boolean() }),
});

export const alertTemplateEnableEndpoint = defineEndpoint({
  name: 'alertTemplateEnable',
  errors: ['service_disabled', 'not_allowed', ...RECIPIENT_ERRORS],
  program: 'hub',
  method: 'POST',
  path: '/audit/alerts/templates/enable/',
  auth: 'hubAuth',
  access: RULES.eventLogs,
  summary: 'Switches a built-in template on as a rule; its destinations default to an e-mail to the caller.',
  input: z.object({
    team_slug: TeamSlug,
    template: z.enum(ALERT_TEMPLATE_KEYS),
    name: z.string().trim().min(1).max(120),
    destinations: z.array(AlertDestinationInput).min(1).max(10).optional(),
  }),
  output: RuleReply,
});

export const alertRuleTestEndpoint = defineEndpoint({
  name: 'alertRuleTest',
  errors: ['service_disabled', 'not_found'],
  program: 'hub',
  method: 'POST',
  path: '/audit/alerts/rules/test/',
  auth: 'hubAuth',
  access: RULES.eventLogs,
  summary: "Sends a test alert to each of the rule's destinations (kept in its history, marked as a test).",
  input: ById,
  output: z.object({ firing_id: z.string() }),
});

export const alertRuleFiringsEndpoint = defineEndpoint({
  name: 'alertRuleFirings',
  errors: ['service_disabled', 'not_found'],
  program: 'hub',
  method: 'POST',
  path: '/audit/alerts/rules/firings/',
  auth: 'hubAuth',
  access: RULES.eventLogs,
  summary:
    "The rule's firings, newest first, a page at a time (page, page_size; with the total and the number of pages), each with the events that matched and each destination's delivery.",
  input: ById.extend(Paging),
  output: z.object({
    ...PageInfo,
    firings: z.array(
      AlertFiring.extend({
        deliveries: z.array(
          z.object({
            destination_id: z.string(),
            kind: z.enum(ALERT_DESTINATION_KINDS),
            status: z.enum(['pending', 'delivered', 'failed']),
            attempts: z.number().int(),
            last_error: z.string().nullable(),
          }),
        ),
      }),
    ),
  }),
});
