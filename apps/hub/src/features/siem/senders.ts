import type { SiemToolName } from '@latchkey/contracts';
import { qradar } from './qradar.ts';
import type { SenderContext, SiemConfig, Taken } from './sender-http.ts';
import { sentinelDataCollector, sentinelLogsIngestion } from './sentinel.ts';
import { eventJson, ndjson, type SiemEvent } from './siem-event.ts';
import { hecBodies, splunkHec } from './splunk.ts';
import { sumoLogic } from './sumo.ts';
import { webhook } from './webhook.ts';

export { DeliveryError, type SenderContext, type SiemConfig } from './sender-http.ts';
export type { SiemEvent } from './siem-event.ts';

/** Splunk HTTP Event Collector (splunk.ts). */
async function splunk(events: SiemEvent[], c: SiemConfig, ctx: SenderContext) {
  return splunkHec(
    hecBodies(events.map((e) => ({ seq: e.seq, time: Date.parse(e.occurred_at) / 1000, event: eventJson(e) }))),
    c,
    ctx,
  );
}

/** The generic HTTPS webhook (webhook.ts, docs/webhook.md). */
async function other(events: SiemEvent[], c: SiemConfig, ctx: SenderContext) {
  await webhook(events, ndjson(events), c, ctx);
}

/** Sumo Logic HTTP source (sumo.ts). */
async function sumo(events: SiemEvent[], c: SiemConfig, ctx: SenderContext) {
  await sumoLogic(ndjson(events), c, ctx);
}

/** Microsoft Sentinel: the Logs Ingestion API when the form chose it, else the legacy Data Collector API. */
async function sentinel(events: SiemEvent[], c: SiemConfig, ctx: SenderContext) {
  const records = events.map(eventJson);
  if (c.api === 'logs_ingestion') return sentinelLogsIngestion(records, c, ctx);
  return sentinelDataCollector(records, c, ctx);
}

type Sender = (events: SiemEvent[], c: SiemConfig, ctx: SenderContext) => Promise<Taken>;
/** A destination that confirms a batch by taking it (its 2xx answer; syslog's clean close). */
const takes =
  (send: (events: SiemEvent[], c: SiemConfig, ctx: SenderContext) => Promise<void>): Sender =>
  async (events, c, ctx) => {
    await send(events, c, ctx);
    return undefined;
  };

/**
 * The senders, one per vendor's wire format. Each sender takes a batch (oldest first) and resolves only once
 * the destination accepted all of it; anything else throws, and the delivery retries the batch
 * (at least once: each event keeps its stable `id`, which the receiving side de-duplicates on).
 */
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
