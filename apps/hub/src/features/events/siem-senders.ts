import { createHash, createHmac } from 'node:crypto';
import { hostname } from 'node:os';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { EventRecord, SiemToolName } from '@latchkey/contracts';
import { sentinelLogsIngestion } from './sentinel-ingestion.ts';
import { post, type SenderContext, type SiemConfig, str, type Taken } from './siem-http.ts';
import { qradar } from './siem-qradar.ts';
import { hecBodies, splunkHec } from './siem-splunk.ts';
import { webhook } from './siem-webhook.ts';

/**
 * The SIEM vendors' wire formats. Each sender takes a batch (oldest first) and resolves only once
 * the destination accepted all of it; anything else throws, and the delivery retries the batch
 * (at least once: each event keeps its stable `id`, which the receiving side de-duplicates on).
 */
export type SiemEvent = EventRecord & { team_slug: string };
export { DeliveryError, type SenderContext, type SiemConfig } from './siem-http.ts';

const HOST = hostname();
/** Compressed on libuv's threads, not the event loop's. */
const gzip = promisify(gzipCallback);

/** The event as every JSON destination receives it: flat, stable keys, the chain fields included. */
export const eventJson = (e: SiemEvent) => ({
  id: e.id,
  seq: e.seq,
  team: e.team_slug,
  occurred_at: e.occurred_at,
  recorded_at: e.recorded_at,
  actor: e.actor,
  actor_type: e.actor_type,
  activity: e.activity,
  component: e.component,
  target: e.target,
  ip: e.ip,
  device: e.device,
  outcome: e.outcome,
  detail: e.detail,
  prev_hash: e.prev_hash,
  hash: e.hash,
});

const ndjson = (events: SiemEvent[]) => `${events.map((e) => JSON.stringify(eventJson(e))).join('\n')}\n`;

/** Splunk HTTP Event Collector (siem-splunk.ts). */
async function splunk(events: SiemEvent[], c: SiemConfig, ctx: SenderContext) {
  return splunkHec(
    hecBodies(events.map((e) => ({ seq: e.seq, time: Date.parse(e.occurred_at) / 1000, event: eventJson(e) }))),
    c,
    ctx,
  );
}

/** The generic HTTPS webhook (siem-webhook.ts, docs/webhook.md). */
async function other(events: SiemEvent[], c: SiemConfig, ctx: SenderContext) {
  await webhook(events, ndjson(events), c, ctx);
}

/** Sumo Logic HTTP source: gzip-compressed NDJSON with the category, name and host headers. */
async function sumo(events: SiemEvent[], c: SiemConfig, ctx: SenderContext) {
  await post(ctx, str(c, 'url'), {
    headers: {
      'content-type': 'application/x-ndjson',
      'content-encoding': 'gzip',
      'x-sumo-category': 'latchkey/events',
      'x-sumo-name': 'latchkey-hub',
      'x-sumo-host': HOST,
    },
    body: await gzip(ndjson(events)),
  });
}

/** Microsoft Sentinel: the Logs Ingestion API when the form chose it, else the legacy Data Collector API. */
async function sentinel(events: SiemEvent[], c: SiemConfig, ctx: SenderContext) {
  if (c.api === 'logs_ingestion') return sentinelLogsIngestion(events.map(eventJson), c, ctx);
  return sentinelDataCollector(events, c, ctx);
}

/** Microsoft Sentinel, Data Collector API: a JSON array signed with the workspace's shared key (SharedKey HMAC-SHA256). */
async function sentinelDataCollector(events: SiemEvent[], c: SiemConfig, ctx: SenderContext) {
  const workspace = str(c, 'workspace_id');
  const body = Buffer.from(JSON.stringify(events.map(eventJson)));
  const date = new Date().toUTCString();
  const toSign = `POST\n${body.length}\napplication/json\nx-ms-date:${date}\n/api/logs`;
  const signature = createHmac('sha256', Buffer.from(str(c, 'key'), 'base64'))
    .update(toSign, 'utf8')
    .digest('base64');
  await post(ctx, ctx.sentinelUrl.replace('{workspace_id}', encodeURIComponent(workspace)), {
    headers: {
      authorization: `SharedKey ${workspace}:${signature}`,
      'content-type': 'application/json',
      'log-type': 'Latchkey',
      'x-ms-date': date,
      'time-generated-field': 'occurred_at',
    },
    body,
  });
}

type Sender = (events: SiemEvent[], c: SiemConfig, ctx: SenderContext) => Promise<Taken>;
/** A destination that confirms a batch by taking it (its 2xx answer; syslog's clean close). */
const takes =
  (send: (events: SiemEvent[], c: SiemConfig, ctx: SenderContext) => Promise<void>): Sender =>
  async (events, c, ctx) => {
    await send(events, c, ctx);
    return undefined;
  };

export const SENDERS: Record<SiemToolName, Sender> = {
  splunk,
  other: takes(other),
  sumo_logic: takes(sumo),
  azure_sentinel: takes(sentinel),
  qradar: takes(qradar),
};

/** Fields of each vendor's form that are secrets: never sent back to the console, kept when an edit leaves them empty. */
export const SECRET_FIELDS: Record<SiemToolName, readonly string[]> = {
  splunk: ['token'],
  other: ['token', 'signing_secret'],
  sumo_logic: [],
  azure_sentinel: ['key', 'client_secret'],
  qradar: [],
};

/** The secrets a saved destination must hold (Sentinel's depend on the API it uses). */
export const requiredSecrets = (tool: SiemToolName, c: SiemConfig): readonly string[] =>
  tool === 'azure_sentinel' ? [c.api === 'logs_ingestion' ? 'client_secret' : 'key'] : SECRET_FIELDS[tool];

/** A fingerprint of a secret for the console to tell one is stored, never the secret. */
export const fingerprint = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);
