import { OutboundError, type OutboundPolicy, outboundFetch } from '@latchkey/runtime';

/** What every SIEM sender shares: its error, its context, and one POST through the outbound guard. */
export type SiemConfig = Record<string, string | boolean>;

export class DeliveryError extends Error {
  /**
   * Set when a batch went in several requests and a later one failed: the last event (seq) of the
   * requests the destination took, so the cursor moves that far and those are not sent again.
   */
  takenThrough?: number;

  constructor(
    message: string,
    /** The destination could not be reached at all (url_not_accessible when saving). */
    readonly unreachable: boolean,
    /** The destination's HTTP status when it answered with one. */
    readonly status?: number,
    /** How long the destination asked us to wait before trying again (its Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** Retry-After in milliseconds: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
function retryAfterMs(res: Response): number | undefined {
  const value = res.headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export interface SenderContext {
  policy: OutboundPolicy;
  /** Sentinel's Data Collector URL template (`{workspace_id}`). */
  sentinelUrl: string;
  /** Entra ID's token endpoint template for the Logs Ingestion API (`{tenant_id}`). */
  sentinelTokenUrl: string;
  /** The destination's own random GUID: Splunk HEC's request channel. */
  channel: string;
  /** Extra trusted certificate authorities (PEM). */
  ca?: string | undefined;
}

/**
 * What a sender answers once the destination took a batch: nothing when taking it is the
 * confirmation, or the wait for a later one (Splunk's indexer acknowledgement).
 */
export type Taken = { confirmed: Promise<void> } | undefined;

export const str = (c: SiemConfig, k: string) => (typeof c[k] === 'string' ? (c[k] as string) : '');

/** POSTs to a destination and answers whatever it answered; only a connection failure throws (a DeliveryError). */
export async function postRaw(
  ctx: SenderContext,
  url: string,
  init: { headers: Record<string, string>; body: string | Buffer; insecure?: boolean },
): Promise<Response> {
  try {
    return await outboundFetch(
      url,
      {
        method: 'POST',
        headers: init.headers,
        body: init.body,
        ...(init.insecure ? { insecureTls: true } : {}),
        ...(ctx.ca ? { ca: ctx.ca } : {}),
      },
      ctx.policy,
    );
  } catch (error) {
    throw new DeliveryError(error instanceof OutboundError ? error.message : 'The destination did not answer.', true);
  }
}

/** The DeliveryError of a non-2xx answer (404, 401 and 403 say the form is wrong: url_not_accessible when saving). */
export const refused = (res: Response, message = `The destination answered with status ${res.status}.`) =>
  new DeliveryError(message, res.status === 404 || res.status === 401 || res.status === 403, res.status, retryAfterMs(res));

/** POSTs to a destination; a connection failure or a non-2xx answer throws a DeliveryError. */
export async function post(
  ctx: SenderContext,
  url: string,
  init: { headers: Record<string, string>; body: string | Buffer; insecure?: boolean },
) {
  const res = await postRaw(ctx, url, init);
  if (res.status < 200 || res.status >= 300) throw refused(res);
  return res;
}

/**
 * Items cut into request bodies of at most `max` bytes: `open`, the items' texts joined by `join`,
 * `close` (a JSON array, NDJSON, lines). Each part keeps its items, so a sender knows how far a
 * destination took a batch when a later part fails.
 */
export function cutByBytes<T>(
  items: T[],
  text: (item: T) => string,
  o: { max: number; open?: string; join: string; close?: string },
): { body: string; items: T[] }[] {
  const open = o.open ?? '';
  const close = o.close ?? '';
  const frame = Buffer.byteLength(open) + Buffer.byteLength(close);
  const parts: { body: string; items: T[] }[] = [];
  let texts: string[] = [];
  let taken: T[] = [];
  let size = frame;
  for (const item of items) {
    const t = text(item);
    const bytes = Buffer.byteLength(t) + (texts.length ? Buffer.byteLength(o.join) : 0);
    if (texts.length && size + bytes > o.max) {
      parts.push({ body: `${open}${texts.join(o.join)}${close}`, items: taken });
      texts = [];
      taken = [];
      size = frame;
    }
    size += texts.length ? bytes : Buffer.byteLength(t);
    texts.push(t);
    taken.push(item);
  }
  if (texts.length) parts.push({ body: `${open}${texts.join(o.join)}${close}`, items: taken });
  return parts;
}

/** Sends the parts in order; a failure says through which event (seq) the parts before it were taken. */
export async function sendParts<T extends { seq: number }>(
  parts: { body: string; items: T[] }[],
  send: (body: string) => Promise<unknown>,
): Promise<void> {
  let through: number | undefined;
  for (const part of parts) {
    try {
      await send(part.body);
    } catch (error) {
      if (error instanceof DeliveryError && through !== undefined) error.takenThrough = through;
      throw error;
    }
    through = part.items[part.items.length - 1]?.seq;
  }
}
