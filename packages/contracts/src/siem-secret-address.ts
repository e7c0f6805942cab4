import type { SiemToolName } from './eventlogs-constants.ts';

/**
 * Where a SIEM destination's stored secret goes, per vendor. An edit that leaves the secret empty
 * keeps the stored one only while this stays the same: otherwise whoever can edit the form could
 * point it at their own listener and receive the team's token with the test event. The Hub refuses
 * such an edit and the console's form asks for the secret again, from this one definition.
 */
type FormValues = Readonly<Record<string, string | boolean | undefined>>;

const text = (c: FormValues, k: string) => (typeof c[k] === 'string' ? (c[k] as string).trim() : '');
/** A URL as the sender reaches it (host case and default port normalised), or the text as typed. */
const href = (value: string) => (URL.canParse(value) ? new URL(value).href : value);

const ADDRESS: Record<SiemToolName, (c: FormValues) => readonly string[]> = {
  // The token goes to the URL's host on the form's port and path (and the indexer acks on that host).
  splunk: (c) => [href(text(c, 'url')), text(c, 'port'), text(c, 'path')],
  // The webhook's bearer token and HMAC key go to the URL itself.
  other: (c) => [href(text(c, 'url'))],
  // The URL is the credential; nothing else is stored.
  sumo_logic: (c) => [href(text(c, 'url'))],
  // Logs Ingestion: the client secret goes to the tenant's token endpoint, and the bearer token it
  // buys to the data collection endpoint. Data Collector: the shared key signs for the workspace's host.
  azure_sentinel: (c) =>
    c.api === 'logs_ingestion'
      ? ['logs_ingestion', text(c, 'tenant_id'), href(text(c, 'dce_endpoint'))]
      : ['data_collector', text(c, 'workspace_id')],
  qradar: (c) => [href(text(c, 'url'))],
};

/**
 * True when an edit from `before` to `after` changes where the secret goes, or stops checking the
 * certificate of the party that receives it (a secret sent where anyone on the path may answer).
 */
export function siemSecretMoved(tool: SiemToolName, before: FormValues, after: FormValues): boolean {
  const was = ADDRESS[tool](before);
  const now = ADDRESS[tool](after);
  if (was.length !== now.length || was.some((v, i) => v !== now[i])) return true;
  return before.allow_unverified_certificate !== true && after.allow_unverified_certificate === true;
}
