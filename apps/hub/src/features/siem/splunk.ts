import { hostname } from 'node:os';
import {
  cutByBytes,
  DeliveryError,
  postRaw,
  refused,
  type SenderContext,
  type SiemConfig,
  sendParts,
  str,
  type Taken,
} from './sender-http.ts';

/**
 * Splunk's HTTP Event Collector: `Authorization: Splunk <token>`, the destination's own GUID as the
 * request channel (Splunk checks it is one, and needs it with indexer acknowledgement), event
 * objects one after another in requests of at most 1 MB (Splunk Cloud's `max_content_length`).
 * With indexer acknowledgement Splunk answers an `ackId` per request (from 0, per channel); the
 * batch counts as delivered only once every one of them is reported indexed on
 * `/services/collector/ack`, so the cursor never moves past events Splunk could still lose.
 */
const HOST = hostname();
const MAX_REQUEST_BYTES = 1_000_000;
/** How long a batch waits for Splunk to report it indexed; then it is sent again (Splunk forgets acks of a restarted indexer). */
const ACK_WAIT_MS = 60_000;

type HecAnswer = { text?: string; code?: number; ackId?: number; acks?: Record<string, boolean> };

async function answerOf(res: Response): Promise<HecAnswer> {
  return ((await res.json().catch(() => ({}))) ?? {}) as HecAnswer;
}

/** A refusal in Splunk's own words (its status code table), e.g. "Invalid data channel (code 11)". */
function refusal(res: Response, a: HecAnswer): DeliveryError {
  const why = a.text ? `${a.text}${a.code !== undefined ? ` (code ${a.code})` : ''}` : `status ${res.status}`;
  return refused(res, `Splunk HEC refused the batch: ${why}.`);
}

/** Events as HEC JSON objects (epoch seconds, the event), cut into request bodies of at most MAX_REQUEST_BYTES. */
export const hecBodies = <T extends { seq: number; time: number; event: unknown }>(events: T[]) =>
  cutByBytes(
    events,
    (e) => JSON.stringify({ time: e.time, host: HOST, source: 'latchkey-hub', sourcetype: 'latchkey:event', event: e.event }),
    { max: MAX_REQUEST_BYTES, join: '\n' },
  );

/**
 * Sends the batch; resolves once HEC answered every request, with (under indexer acknowledgement)
 * the wait for Splunk to report it indexed, so the next batch can go while this one is indexed.
 */
export async function splunkHec(
  parts: { body: string; items: { seq: number }[] }[],
  c: SiemConfig,
  ctx: SenderContext,
): Promise<Taken> {
  const base = new URL(str(c, 'url'));
  base.port = str(c, 'port');
  const url = new URL(base);
  url.pathname = str(c, 'path') || '/services/collector/event';
  const insecure = c.allow_unverified_certificate === true;
  const headers = {
    authorization: `Splunk ${str(c, 'token')}`,
    'content-type': 'application/json',
    'x-splunk-request-channel': ctx.channel,
  };
  const ackIds: number[] = [];
  // Without acknowledgement each answered request is taken: a later failure says how far.
  await sendParts(parts, async (body) => {
    const res = await postRaw(ctx, url.toString(), { headers, body, insecure });
    const a = await answerOf(res);
    if (res.status < 200 || res.status >= 300 || (a.code !== undefined && a.code !== 0)) throw refusal(res, a);
    if (typeof a.ackId === 'number') ackIds.push(a.ackId);
  }).catch((error: unknown) => {
    // With acknowledgement nothing counts before Splunk reports it indexed.
    if (error instanceof DeliveryError && ackIds.length) error.takenThrough = undefined;
    throw error;
  });
  if (ackIds.length) return { confirmed: indexed(ackIds, base, headers, insecure, ctx) };
}

/** Polls `/services/collector/ack` until Splunk reports every id indexed; a busy answer (code 9) is polled again. */
async function indexed(ids: number[], base: URL, headers: Record<string, string>, insecure: boolean, ctx: SenderContext) {
  const ack = new URL(base);
  ack.pathname = '/services/collector/ack';
  ack.searchParams.set('channel', ctx.channel);
  const pending = new Set(ids);
  const deadline = Date.now() + ACK_WAIT_MS;
  let busySince: number | null = null;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1_000)) {
    const res = await postRaw(ctx, ack.toString(), { headers, body: JSON.stringify({ acks: [...pending] }), insecure });
    const a = await answerOf(res);
    if (res.status >= 200 && res.status < 300) {
      busySince = null;
      for (const [id, done] of Object.entries(a.acks ?? {})) if (done) pending.delete(Number(id));
      if (!pending.size) return;
    } else if (res.status !== 503) throw refusal(res, a);
    else {
      // Busy (code 9): polled again, but not longer than an answer is waited for (the health panel shows it then).
      busySince ??= Date.now();
      if (Date.now() - busySince > ctx.policy.timeoutMs) throw refusal(res, a);
    }
    if (Date.now() + wait > deadline) throw new DeliveryError('Splunk did not report the batch indexed in time.', false);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
