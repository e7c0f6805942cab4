import { z } from 'zod';
import { RULES } from './access.ts';
import { DEFAULT_PAGE_SIZE } from './constants.ts';
import { defineEndpoint } from './endpoint.ts';
import {
  ACTOR_TYPES,
  CHAIN_PROBLEM_KINDS,
  CHAIN_PROBLEMS_LISTED,
  EVENT_OUTCOMES,
  EXPORT_FORMATS,
  eventTimeInBounds,
} from './eventlogs-constants.ts';

/**
 * Event logs and SIEM export (spec §2 Event logs settings, §3 filters and SIEM fields, §4 SIEM
 * states, §5 SIEM form and retention, §7 Audit and SIEM): one tamper-evident event store per team
 * on the Hub, fed by the Hub's own actions, the apps' events and the licence server's signed feed.
 */

/** When an event happened: ISO 8601 with an offset, within the bounds the Hub stores (eventTimeInBounds). */
export const EventTime = z.iso.datetime({ offset: true }).refine((v) => eventTimeInBounds(v), 'errors.event_time_out_of_range');

/** What the Hub stores, from whichever source; `id` is the source's stable id (de-duplication). */
export const EventInput = z.object({
  id: z.uuid(),
  actor: z.string().max(320).default(''),
  actor_type: z.enum(ACTOR_TYPES),
  activity: z.string().regex(/^[a-z0-9_.]{1,80}$/),
  component: z.string().regex(/^[a-z0-9_]{1,40}$/),
  target: z.string().max(320).default(''),
  ip: z.string().max(64).default(''),
  device: z.string().max(200).default(''),
  occurred_at: EventTime,
  outcome: z.enum(EVENT_OUTCOMES).default('success'),
  detail: z.record(z.string().max(50), z.union([z.string().max(500), z.number(), z.boolean(), z.null()])).default({}),
});
export type EventInput = z.input<typeof EventInput>;

export const EventRecord = z.object({
  id: z.string(),
  seq: z.number().int(),
  actor: z.string(),
  actor_type: z.enum(ACTOR_TYPES),
  activity: z.string(),
  component: z.string(),
  target: z.string(),
  ip: z.string(),
  device: z.string(),
  occurred_at: z.string(),
  recorded_at: z.string(),
  outcome: z.enum(EVENT_OUTCOMES),
  detail: z.record(z.string(), z.unknown()),
  prev_hash: z.string(),
  hash: z.string(),
});
export type EventRecord = z.infer<typeof EventRecord>;

/** Spec §3: activities, actors, components, ip_addresses, dates (epoch seconds), search_value. */
export const EventFilters = z.object({
  activities: z.array(z.string().max(80)).max(50).default([]),
  actors: z.array(z.string().max(320)).max(50).default([]),
  components: z.array(z.string().max(40)).max(50).default([]),
  ip_addresses: z.array(z.string().max(64)).max(50).default([]),
  dates: z
    .object({
      start_timestamp: z.number().int().min(0).nullable().default(null),
      end_timestamp: z.number().int().min(0).nullable().default(null),
    })
    .default({ start_timestamp: null, end_timestamp: null }),
  search_value: z.string().trim().max(100).default(''),
});
export type EventFilters = z.input<typeof EventFilters>;

const TeamSlug = z.string().min(1).max(100);
const Page = z.coerce.number().int().min(1).max(1_000_000).default(1);
const PageSize = z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE);

export const auditLogsFetchEndpoint = defineEndpoint({
  name: 'auditLogsFetch',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/fetch/',
  auth: 'hubAuth',
  errors: ['service_disabled'],
  access: RULES.eventLogs,
  queryFields: ['page', 'page_size'],
  summary:
    "The team's events, newest first (`page`, `page_size` in the query string, filters in the body). Read by keyset on the chain's sequence: pass `before_seq` (the last row's `seq`) to read the next page without counting rows.",
  input: z.object({
    team_slug: TeamSlug,
    page: Page,
    page_size: PageSize,
    filters: EventFilters.default(EventFilters.parse({})),
    before_seq: z.coerce.number().int().min(1).optional(),
  }),
  output: z.object({
    results: z.array(EventRecord),
    /**
     * Rows matching the filter, up to EVENT_COUNT_CAP (eventlogs-constants.ts); with a free-text search up to
     * EVENT_SEARCH_COUNT_CAP (a common term's matches over millions of events would take seconds to count).
     */
    total: z.number().int().nullable(),
    pages: z.number().int().nullable(),
    /** The `before_seq` of the next page; null on the last. */
    next_before_seq: z.number().int().nullable(),
  }),
});

export const auditLogsFiltersFetchEndpoint = defineEndpoint({
  name: 'auditLogsFiltersFetch',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/filters/fetch/',
  auth: 'hubAuth',
  errors: ['service_disabled'],
  access: RULES.eventLogs,
  queryFields: ['page', 'page_size'],
  summary: "The options of the event log's filters: the team's activities, actors, components and IP addresses seen.",
  input: z.object({ team_slug: TeamSlug, page: Page, page_size: z.coerce.number().int().min(1).max(500).default(200) }),
  output: z.object({
    activities: z.array(z.string()),
    actors: z.array(z.string()),
    components: z.array(z.string()),
    ip_addresses: z.array(z.string()),
  }),
});

export const auditLogsExportEndpoint = defineEndpoint({
  name: 'auditLogsExport',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/export/',
  auth: 'hubAuth',
  errors: ['service_disabled'],
  access: RULES.eventLogs,
  summary:
    'The events of the current filter, oldest first, streamed as CSV or NDJSON (not JSON): every row with its seq, prev_hash and hash, so a third party can re-compute the chain. The X-Total-Count header says how many rows follow.',
  input: z.object({ team_slug: TeamSlug, format: z.enum(EXPORT_FORMATS), filters: EventFilters.default(EventFilters.parse({})) }),
  output: z.unknown(),
});

/** One break in a team's hash chain, at a sequence number. */
export const ChainProblem = z.object({ seq: z.number().int(), kind: z.enum(CHAIN_PROBLEM_KINDS) });

export const auditLogsVerifyEndpoint = defineEndpoint({
  name: 'auditLogsVerify',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/verify/',
  auth: 'hubAuth',
  errors: ['service_disabled'],
  access: RULES.eventLogs,
  summary:
    "Re-computes the team's hash chain over a range of sequence numbers (all by default) and says everywhere it breaks: a changed row (hash), an inserted or replaced one (link), a removed run (gap, at its first seq). `problems` lists them in seq order (the first 1,000; `problem_count` counts all); `problem` is the first, as before.",
  input: z.object({
    team_slug: TeamSlug,
    from_seq: z.number().int().min(1).optional(),
    to_seq: z.number().int().min(1).optional(),
  }),
  output: z.object({
    ok: z.boolean(),
    /** Rows read and re-hashed. */
    checked: z.number().int(),
    first_seq: z.number().int().nullable(),
    last_seq: z.number().int().nullable(),
    head_hash: z.string().nullable(),
    /** The first problem (null when none): the answer's shape before `problems`. */
    problem: ChainProblem.nullable(),
    problems: z.array(ChainProblem).max(CHAIN_PROBLEMS_LISTED),
    problem_count: z.number().int().min(0),
  }),
});

// ── configuration ──
export const EventLogsConfig = z.object({
  delete_after_days: z.number().int().nullable(),
  /** Retention is the customer's to set only on a Hub they host. */
  self_hosted: z.boolean(),
  /** SIEM export switched on for the team (`audit/logs/configuration/`). */
  siem_enabled: z.boolean(),
  total_events: z.number().int(),
  /** When the pull API's token was made; null when there is none. */
  pull_token_created_at: z.string().nullable(),
});

export const auditLogsConfigurationFetchEndpoint = defineEndpoint({
  name: 'auditLogsConfigurationFetch',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/configuration/fetch/',
  auth: 'hubAuth',
  access: RULES.settingsEventLogs,
  summary: "The team's event log settings: retention and whether SIEM export is on.",
  input: z.object({ team_slug: TeamSlug }),
  output: EventLogsConfig,
});

export const auditLogsConfigurationUpdateEndpoint = defineEndpoint({
  name: 'auditLogsConfigurationUpdate',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/configuration/update/',
  auth: 'hubAuth',
  access: RULES.settingsEventLogs,
  errors: ['not_allowed', 'approval_required', 'approval_check_unavailable'],
  summary:
    'Sets the retention (self-hosted Hubs only): events older than `delete_after_days` (at least 1) are removed by whole months, with a checkpoint event so what remains still verifies.',
  input: z.object({
    team_slug: TeamSlug,
    delete_after_days: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  }),
  output: EventLogsConfig,
});

export const auditLogsConfigurationEndpoint = defineEndpoint({
  name: 'auditLogsConfiguration',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/configuration/',
  auth: 'hubAuth',
  access: RULES.settingsEventLogs,
  errors: ['approval_required', 'approval_check_unavailable'],
  summary: 'Switches SIEM export on or off for the team on this Hub.',
  input: z.object({ team_slug: TeamSlug, action: z.enum(['enable', 'disable']) }),
  output: EventLogsConfig,
});

// ── the licence server's signed feed ──
export const hubEventsFeedEndpoint = defineEndpoint({
  name: 'hubEventsFeed',
  program: 'hub',
  method: 'POST',
  path: '/api/v1/integrate/events/',
  auth: 'public',
  errors: ['unauthorized'],
  summary:
    "Server to Hub (signed): a batch of the team's events recorded on the licence server (sign-in, members, groups, policies, admins, branding, integration). Idempotent by event id: a batch sent twice is stored once. A batch with an event outside the time bounds (2000-01-01 to one day after the Hub's clock) is refused whole (errors.event_time_out_of_range).",
  input: z.object({ team_slug: TeamSlug, events: z.array(EventInput).min(1).max(500) }),
  output: z.object({ accepted: z.number().int(), duplicates: z.number().int() }),
});

// ── the pull API (SIEMs that poll) ──
export const auditLogsPullTokenEndpoint = defineEndpoint({
  name: 'auditLogsPullToken',
  program: 'hub',
  method: 'POST',
  path: '/audit/logs/pull/token/',
  auth: 'hubAuth',
  access: RULES.settingsEventLogs,
  errors: ['approval_required', 'approval_check_unavailable'],
  summary:
    "Creates (replacing any before it) or revokes the team's read-only token for the events pull API. The token is shown once; the Hub keeps its hash.",
  input: z.object({ team_slug: TeamSlug, action: z.enum(['create', 'revoke']) }),
  output: z.object({ token: z.string().nullable(), created_at: z.string().nullable() }),
});

export const EVENT_PULL_FORMATS = ['native', 'ocsf'] as const;
export const eventsPullEndpoint = defineEndpoint({
  name: 'eventsPull',
  program: 'hub',
  method: 'GET',
  path: '/api/v1/events/pull/',
  auth: 'public',
  errors: ['service_disabled', 'unauthorized'],
  summary:
    "For SIEMs that poll (Authorization: Bearer <the team's pull token>, read-only): the team's events oldest first after `cursor`, up to `limit`. Pass `next_cursor` back to continue: cursors are the chain's sequence, stable across restarts. `format=ocsf` maps each event to OCSF 1.1 (Authentication 3002 for sign-in and sign-out, Account Change 3001 otherwise).",
  input: z.object({
    cursor: z
      .string()
      .regex(/^\d{1,18}$/)
      .default('0'),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    format: z.enum(EVENT_PULL_FORMATS).default('native'),
  }),
  output: z.object({
    events: z.array(z.record(z.string(), z.unknown())),
    next_cursor: z.string(),
    has_more: z.boolean(),
  }),
});
