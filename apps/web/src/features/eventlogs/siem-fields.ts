import {
  QRADAR_LOG_SOURCE,
  type QradarTransport,
  SENTINEL_DCR_ID,
  SENTINEL_STREAM,
  type SentinelApi,
  type SiemToolName,
  WEBHOOK_SIGNING_SECRET_MIN,
} from '@latchkey/contracts/client';

/** The SIEM form's values: one per field of any vendor. */
export type Values = {
  api: SentinelApi;
  transport: QradarTransport;
  url: string;
  port: string;
  path: string;
  token: string;
  signing_secret: string;
  workspace_id: string;
  key: string;
  log_source_identifier: string;
  tenant_id: string;
  client_id: string;
  client_secret: string;
  dce_endpoint: string;
  dcr_immutable_id: string;
  stream_name: string;
  allow_unverified_certificate: boolean;
};

/** Spec §3: each vendor's fields. */
const FIELDS: Record<SiemToolName, readonly (keyof Values)[]> = {
  splunk: ['url', 'port', 'path', 'token', 'allow_unverified_certificate'],
  other: ['url', 'token', 'signing_secret', 'allow_unverified_certificate'],
  sumo_logic: ['url'],
  azure_sentinel: ['api', 'workspace_id', 'key'],
  qradar: ['transport', 'url', 'log_source_identifier', 'allow_unverified_certificate'],
};
/** Sentinel's fields depend on the API the admin chose: Logs Ingestion (Entra app, DCR) or the legacy Data Collector. */
const SENTINEL_FIELDS: Record<SentinelApi, readonly (keyof Values)[]> = {
  data_collector: FIELDS.azure_sentinel,
  logs_ingestion: ['api', 'tenant_id', 'client_id', 'client_secret', 'dce_endpoint', 'dcr_immutable_id', 'stream_name'],
};
export const fieldsFor = (tool: SiemToolName, api: SentinelApi): readonly (keyof Values)[] =>
  tool === 'azure_sentinel' ? SENTINEL_FIELDS[api] : FIELDS[tool];
export const SECRETS: readonly (keyof Values)[] = ['token', 'signing_secret', 'key', 'client_secret'];
/** A webhook signing secret as the console makes it: 256 random bits, base64url (43 characters). */
export function newSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
/** Format checks beyond "required" (spec §5 for the URL and port; Azure's own formats for the rule and stream). */
export function fieldProblem(tool: SiemToolName, f: keyof Values, v: Values): string | null {
  const value = String(v[f]);
  if (f === 'url') return urlProblem(tool, value, v.transport);
  if (f === 'dce_endpoint') return urlProblem(tool, value);
  if (f === 'port') return portProblem(value);
  if (!value.trim()) return 'this field is required';
  if (f === 'dcr_immutable_id') return SENTINEL_DCR_ID.test(value.trim()) ? null : 'siem.form.dcr_invalid';
  if (f === 'stream_name') return SENTINEL_STREAM.test(value.trim()) ? null : 'siem.form.stream_invalid';
  if (f === 'log_source_identifier') return QRADAR_LOG_SOURCE.test(value.trim()) ? null : 'siem.form.log_source_invalid';
  if (f === 'signing_secret' && value.trim().length < WEBHOOK_SIGNING_SECRET_MIN) return 'siem.form.signing_secret_short';
  if (f === 'signing_secret' && value.trim() === v.token.trim()) return 'siem.form.signing_secret_same';
  return null;
}
export const OPTIONAL: readonly (keyof Values)[] = ['api', 'transport', 'path', 'allow_unverified_certificate'];

/** Spec §5: a URL must parse, with https (QRadar's syslog: tcp:// or tls:// with a port). */
function urlProblem(tool: SiemToolName, value: string, transport: QradarTransport = 'http_receiver'): string | null {
  const v = value.trim();
  if (!v) return 'this field is required';
  if (!URL.canParse(v)) return 'invalid url';
  const u = new URL(v);
  if (tool === 'qradar' && transport === 'syslog') return ['tls:', 'tcp:'].includes(u.protocol) && u.port ? null : 'invalid url';
  return u.protocol === 'https:' ? null : 'invalid url';
}

/** Spec §5: port required, digits only, at most 5 characters. */
const portProblem = (value: string): string | null =>
  !value ? 'this field is required' : /^\d{1,5}$/.test(value) ? null : 'siem.form.port_invalid';
