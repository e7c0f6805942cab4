import { z } from 'zod';
import { RULES } from './access.ts';
import { defineEndpoint } from './endpoint.ts';
import {
  QRADAR_LOG_SOURCE,
  QRADAR_TRANSPORTS,
  SENTINEL_APIS,
  SENTINEL_DCR_ID,
  SENTINEL_STREAM,
  SIEM_SECRET_MAX,
  SIEM_STATUSES,
  SIEM_TOOLS,
  WEBHOOK_SIGNING_SECRET_MIN,
} from './eventlogs-constants.ts';

/**
 * The team's SIEM destination on the Hub (spec §3 SIEM fields, §4 SIEM states, §5 SIEM form): the
 * form per vendor, its delivery health, and the calls that configure, switch and test it.
 */

const TeamSlug = z.string().min(1).max(100);

/** A URL the form accepts (spec §5: parseable; https when one is given). QRadar's syslog takes tcp:// or tls://. */
const HttpsUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => URL.canParse(v) && new URL(v).protocol === 'https:', 'invalid url');
const SyslogUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => URL.canParse(v) && ['tls:', 'tcp:'].includes(new URL(v).protocol) && new URL(v).port !== '', 'invalid url');
const Required = (max: number) => z.string().trim().min(1, 'this field is required').max(max);
/** A secret left empty when editing keeps the stored one. */
const Secret = z.string().trim().max(SIEM_SECRET_MAX).default('');

/**
 * Microsoft Sentinel, by either of its APIs: the Logs Ingestion API (an Entra app's tenant id,
 * client id and secret; the data collection endpoint, the rule's immutable id and its stream) or the
 * legacy Data Collector API (spec §3 `workspace_id` and `key`). The fields of the other API stay empty.
 */
const OPTIONAL_TEXT = (max: number) => z.string().trim().max(max).default('');
const SentinelForm = z
  .object({
    siem_tool: z.literal('azure_sentinel'),
    api: z.enum(SENTINEL_APIS).default('data_collector'),
    workspace_id: OPTIONAL_TEXT(100),
    key: Secret,
    tenant_id: OPTIONAL_TEXT(100),
    client_id: OPTIONAL_TEXT(100),
    client_secret: Secret,
    dce_endpoint: OPTIONAL_TEXT(500),
    dcr_immutable_id: OPTIONAL_TEXT(100),
    stream_name: OPTIONAL_TEXT(200),
  })
  .superRefine((v, ctx) => {
    const need = (path: string, ok: boolean, message = 'this field is required') => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    if (v.api === 'data_collector') return need('workspace_id', v.workspace_id !== '');
    need('tenant_id', v.tenant_id !== '');
    need('client_id', v.client_id !== '');
    need('dce_endpoint', HttpsUrl.safeParse(v.dce_endpoint).success, 'invalid url');
    need('dcr_immutable_id', SENTINEL_DCR_ID.test(v.dcr_immutable_id), 'siem.form.dcr_invalid');
    need('stream_name', SENTINEL_STREAM.test(v.stream_name), 'siem.form.stream_invalid');
  });

/**
 * IBM QRadar by its HTTP Receiver (https://, so "https required" holds) or by syslog over TLS or
 * TCP (tls:// or tcp:// with a port); syslog has no acknowledgement (at least once).
 */
const QradarForm = z
  .object({
    siem_tool: z.literal('qradar'),
    transport: z.enum(QRADAR_TRANSPORTS).default('syslog'),
    url: z.string().trim().max(500),
    log_source_identifier: Required(200).regex(QRADAR_LOG_SOURCE, 'siem.form.log_source_invalid'),
    allow_unverified_certificate: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    const url = v.transport === 'http_receiver' ? HttpsUrl : SyslogUrl;
    if (!url.safeParse(v.url).success) ctx.addIssue({ code: 'custom', path: ['url'], message: 'invalid url' });
  });

/**
 * The generic HTTPS webhook (docs/webhook.md): the bearer token the endpoint authenticates the Hub
 * with, and a separate signing secret the Hub signs each delivery with (HMAC-SHA256). Both are
 * secrets: never sent back, kept when an edit leaves them empty; the signing secret is never the token.
 */
const WebhookForm = z
  .object({
    siem_tool: z.literal('other'),
    url: HttpsUrl,
    token: Secret,
    signing_secret: Secret.refine((v) => v === '' || v.length >= WEBHOOK_SIGNING_SECRET_MIN, 'siem.form.signing_secret_short'),
    allow_unverified_certificate: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (v.signing_secret !== '' && v.signing_secret === v.token)
      ctx.addIssue({ code: 'custom', path: ['signing_secret'], message: 'siem.form.signing_secret_same' });
  });

export const SiemForm = z.discriminatedUnion('siem_tool', [
  z.object({
    siem_tool: z.literal('splunk'),
    url: HttpsUrl,
    port: z.string().regex(/^\d{1,5}$/, 'port'),
    path: z.string().trim().max(200).default(''),
    token: Secret,
    allow_unverified_certificate: z.boolean().default(false),
  }),
  WebhookForm,
  z.object({ siem_tool: z.literal('sumo_logic'), url: HttpsUrl }),
  SentinelForm,
  QradarForm,
]);
export type SiemForm = z.input<typeof SiemForm>;

export const SiemHealth = z.object({
  cursor_seq: z.number().int(),
  head_seq: z.number().int(),
  lag: z.number().int(),
  delivered_count: z.number().int(),
  last_error: z.string().nullable(),
  last_success_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
});

export const SiemTool = z.object({
  id: z.string(),
  siem_tool: z.enum(SIEM_TOOLS),
  is_active: z.boolean(),
  status: z.enum(SIEM_STATUSES),
  /** Epoch seconds of the last delivered batch (spec §3). */
  last_synced: z.number().int().nullable(),
  /** The form's values without its secrets; `has_secret` says one is stored. */
  config: z.record(z.string(), z.union([z.string(), z.boolean()])),
  has_secret: z.boolean(),
  health: SiemHealth,
});
export type SiemTool = z.infer<typeof SiemTool>;

export const siemToolsEndpoint = defineEndpoint({
  name: 'siemTools',
  program: 'hub',
  method: 'POST',
  path: '/siem/tools/',
  auth: 'hubAuth',
  access: RULES.settingsEventLogs,
  summary: "The team's SIEM destination with its delivery health; code not_found when none is configured.",
  input: z.object({ team_slug: TeamSlug }),
  output: z.object({ code: z.enum(['ok', 'not_found']), data: SiemTool.nullable() }),
});

export const siemToolsConfigureEndpoint = defineEndpoint({
  name: 'siemToolsConfigure',
  program: 'hub',
  method: 'POST',
  path: '/siem/tools/configure/',
  auth: 'hubAuth',
  access: RULES.settingsEventLogs,
  errors: ['url_not_accessible', 'not_allowed', 'not_found', 'approval_required', 'approval_check_unavailable'],
  summary:
    'Saves the SIEM destination (`id` when editing; refused while active) after sending it a test event; an unreachable destination is url_not_accessible and nothing is saved.',
  input: z.intersection(SiemForm, z.object({ team_slug: TeamSlug, id: z.uuid().optional() })),
  output: z.object({ code: z.literal('ok'), data: SiemTool }),
});

/** 9999-12-31T23:59:59Z in epoch seconds: the last second a four-digit year holds (past 8.64e12 no date exists at all). */
const BACKFILL_FROM_MAX = 253_402_300_799;

export const siemToolUpdateEndpoint = defineEndpoint({
  name: 'siemToolUpdate',
  program: 'hub',
  method: 'POST',
  path: '/siem/tool/update/',
  auth: 'hubAuth',
  access: RULES.settingsEventLogs,
  errors: ['not_found', 'not_allowed', 'url_not_accessible', 'approval_required', 'approval_check_unavailable'],
  summary:
    'Activates, deactivates or deletes the SIEM destination (delete only while inactive); `test` sends it a test event; `backfill` re-sends from `from_timestamp` (epoch seconds).',
  input: z.object({
    team_slug: TeamSlug,
    id: z.uuid(),
    action: z.enum(['activate', 'deactivate', 'delete', 'test', 'backfill']),
    from_timestamp: z.number().int().min(0).max(BACKFILL_FROM_MAX).optional(),
  }),
  output: z.object({ code: z.enum(['ok', 'deleted']), data: SiemTool.nullable() }),
});
