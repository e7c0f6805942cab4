/** Event logs and SIEM export: the plain constants the console shares with the schemas. */
export const ACTOR_TYPES = ['admin', 'member', 'app', 'scim', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
export const EVENT_OUTCOMES = ['success', 'failure'] as const;
/**
 * The times an event may say it happened (`occurred_at`): from 1 January 2000 to one day after the
 * Hub's clock. Inside them the time is stored, read back and hashed as the same text on PGlite and
 * PostgreSQL (a year below 100 read back as 19xx, breaking the chain at that event for good).
 */
export const EVENT_TIME_EARLIEST = '2000-01-01T00:00:00.000Z';
/** How far ahead of the Hub's clock an app's or the licence server's clock may be. */
export const EVENT_TIME_AHEAD_MS = 86_400_000;
export const eventTimeInBounds = (iso: string, now = Date.now()): boolean => {
  const at = Date.parse(iso);
  return at >= Date.parse(EVENT_TIME_EARLIEST) && at <= now + EVENT_TIME_AHEAD_MS;
};
export type EventOutcome = (typeof EVENT_OUTCOMES)[number];
/** A filtered count stops here: a total this high means "at least" (the console shows "10,000+"). */
export const EVENT_COUNT_CAP = 10_000;
/**
 * A free-text search counts its matches up to here (the console shows "1,000+"): counting means
 * reading the matches, which for a common word would cost seconds without a cap.
 */
export const EVENT_SEARCH_COUNT_CAP = 1_000;
export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** What a chain verify finds: a changed row (hash), an inserted or replaced one (link), a removed run (gap). */
export const CHAIN_PROBLEM_KINDS = ['hash', 'link', 'gap'] as const;
export type ChainProblemKind = (typeof CHAIN_PROBLEM_KINDS)[number];
/** Problems a verify lists (all are counted): enough to see what happened, bounded when everything was rewritten. */
export const CHAIN_PROBLEMS_LISTED = 1_000;
/** The vendors in the form's order; `other` is a generic HTTPS webhook. */
export const SIEM_TOOLS = ['splunk', 'other', 'sumo_logic', 'azure_sentinel', 'qradar'] as const;
export type SiemToolName = (typeof SIEM_TOOLS)[number];
/** Microsoft Sentinel's two APIs: Logs Ingestion (Entra app, DCR) and the legacy Data Collector (workspace id, shared key). */
export const SENTINEL_APIS = ['logs_ingestion', 'data_collector'] as const;
export type SentinelApi = (typeof SENTINEL_APIS)[number];
/** IBM QRadar's log source protocols: the HTTP Receiver (an https:// address) or syslog over TLS or TCP (tls:// or tcp://). */
export const QRADAR_TRANSPORTS = ['http_receiver', 'syslog'] as const;
export type QradarTransport = (typeof QRADAR_TRANSPORTS)[number];
/** A QRadar log source identifier travels as the syslog HOSTNAME (RFC 5424): printable ASCII, no spaces. */
export const QRADAR_LOG_SOURCE = /^[\x21-\x7e]{1,200}$/;
/** A data collection rule's immutable id as Azure shows it: `dcr-` and 32 hex digits. */
export const SENTINEL_DCR_ID = /^dcr-[0-9a-f]{32}$/;
/** A DCR stream: `Custom-<table>` for a custom table, `Microsoft-<table>` for a built-in one. */
export const SENTINEL_STREAM = /^(Custom|Microsoft)-[A-Za-z0-9_]{1,100}$/;
/** Spec §4: badges. */
export const SIEM_STATUSES = ['pending', 'awaiting_config_verification', 'tested', 'active', 'inactive'] as const;
export type SiemStatus = (typeof SIEM_STATUSES)[number];
/**
 * The columns of an export, in order (CSV header and NDJSON keys). `activity_label` is the activity's
 * English label from the catalogue (the code itself when the catalogue lacks it); it is not part of the
 * chain's hash.
 */
export const EXPORT_COLUMNS = [
  'seq',
  'id',
  'occurred_at',
  'recorded_at',
  'actor',
  'actor_type',
  'activity',
  'activity_label',
  'component',
  'target',
  'ip',
  'device',
  'outcome',
  'detail',
  'prev_hash',
  'hash',
] as const;
/** Retention (spec §5): at least one day. */
export const MIN_RETENTION_DAYS = 1;

/** The longest SIEM secret (token, key) accepted. */
export const SIEM_SECRET_MAX = 2000;
/** The shortest webhook signing secret accepted, the SIEM webhook's and an alert rule's (the console makes 43 characters, 256 random bits). */
export const WEBHOOK_SIGNING_SECRET_MIN = 32;
/** Saved searches an admin may keep (their private ones and the shared ones they made): a clear error past it. */
export const SAVED_SEARCHES_PER_ADMIN = 100;
export const SAVED_SEARCH_NAME_MAX = 80;

/** What members' apps may report (the ingestion API's event types), logged as `app.<type>`. */
export const EVENT_TYPES = [
  'vault_unlocked',
  'item_created',
  'item_updated',
  'item_deleted',
  'item_shared',
  'share_revoked',
  'recovery_requested',
] as const;
