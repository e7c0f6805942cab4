import type { IncomingMessage } from 'node:http';
import { type Answer, listen, type Receiver, type Tls } from './siem-listen.ts';

/**
 * Splunk's HTTP Event Collector, as strict as Splunk documents it ("HTTP Event Collector REST API
 * endpoints", "Format events for HTTP Event Collector", "About HTTP Event Collector Indexer
 * Acknowledgment", and the status codes table of "Troubleshoot HTTP Event Collector"):
 *
 * - `Authorization: Splunk <token>`: none is 401 code 2, another form 401 code 3, an unknown token
 *   403 code 4, a disabled one 403 code 1;
 * - the request channel (`X-Splunk-Request-Channel` or `?channel=`) must be a GUID whenever one is
 *   sent (400 code 11), and is required on a token with indexer acknowledgement (400 code 10);
 * - `/services/collector/event` takes event objects one after another; no body is 400 code 5, a
 *   body that is not JSON objects 400 code 6, an object without `event` 400 code 12, a blank
 *   `event` 400 code 13, an index the token may not write 400 code 7; a body over the content limit
 *   is 413; while busy, 503 code 9 (the sender must retry);
 * - with acknowledgement each accepted request gets an `ackId` (counting from 0 per channel); the
 *   sender polls `/services/collector/ack` with `{"acks": [...]}` and an id is `true` once indexed
 *   (here: from the second poll on), then forgotten (false after); without it, 400 code 14.
 */
export const SPLUNK_TOKEN = '8f4b3c2a-1d5e-4f6a-9b7c-0e1d2c3b4a59';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface HecOptions {
  /** Indexer acknowledgement on the token (Splunk Enterprise: per token). */
  ack?: boolean;
  /** Indexes the token may write; an event naming another is code 7. Empty: the token's default only. */
  indexes?: string[];
  /** `max_content_length` of inputs.conf [http], in bytes (Splunk Cloud's is 1 MB). */
  maxContentLength?: number;
  /** The token as disabled in Splunk Web. */
  disabled?: boolean;
}

export type HecReceiver = Receiver & {
  /** Answer 503 code 9 while set (a full queue). */
  busy: boolean;
  /** While false the indexers are behind: acks stay false (a batch the sender must not count delivered). */
  indexing: boolean;
  /** Ack polls taken, and the channels seen (each a GUID). */
  ackPolls: number;
  channels: Set<string>;
  /** The events of every accepted request, raw, for tests that read what the sender wrote. */
  events: Record<string, unknown>[];
};

const hec = (status: number, text: string, code: number, extra: Record<string, unknown> = {}): Answer => ({
  status,
  body: { text, code, ...extra },
});

/** The JSON objects of a HEC body, one after another (whitespace between them allowed); null when it is not that. */
function splitHecObjects(text: string): unknown[] | null {
  // Most senders put one object a line: read them so, else object by object.
  try {
    const byLine = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as unknown);
    if (byLine.every((o) => typeof o === 'object' && o !== null && !Array.isArray(o))) return byLine;
  } catch {
    // Not one object a line: objects may follow one another on a line, or span lines.
  }
  return scanHecObjects(text);
}

function scanHecObjects(text: string): unknown[] | null {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      if (depth === 0) return null;
      inString = true;
    } else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth < 0) return null;
      if (depth === 0) {
        try {
          out.push(JSON.parse(text.slice(start, i + 1)));
        } catch {
          return null;
        }
      }
    } else if (depth === 0 && !/\s/.test(c ?? '')) return null;
  }
  return depth === 0 ? out : null;
}

function authProblem(req: IncomingMessage, o: HecOptions): Answer | null {
  const auth = req.headers.authorization;
  if (!auth) return hec(401, 'Token is required', 2);
  const m = /^Splunk (\S+)$/.exec(auth);
  if (!m) return hec(401, 'Invalid authorization', 3);
  if (m[1] !== SPLUNK_TOKEN) return hec(403, 'Invalid token', 4);
  if (o.disabled) return hec(403, 'Token disabled', 1);
  return null;
}

export async function splunkReceiver(tls: Tls, o: HecOptions = {}, port = 0): Promise<HecReceiver> {
  const maxContentLength = o.maxContentLength ?? 1_000_000;
  /** Per channel: the next ackId, and ids accepted but not yet reported indexed (with the polls they saw). */
  const acks = new Map<string, { next: number; pending: Map<number, { polls: number; ids: string[] }> }>();
  const extra = {
    busy: false,
    indexing: true,
    ackPolls: 0,
    channels: new Set<string>(),
    events: [] as Record<string, unknown>[],
  };
  const r = await listen(
    tls,
    (req, body, rec) => {
      const url = new URL(req.url ?? '/', 'https://x');
      const path = url.pathname.replace(/\/+$/, '');
      const known = [
        '/services/collector',
        '/services/collector/event',
        '/services/collector/event/1.0',
        '/services/collector/ack',
      ];
      if (!known.includes(path)) return hec(404, 'The requested URL was not found on this server.', 404);
      if (req.method !== 'POST') return hec(405, 'Method Not Allowed', 405);
      const denied = authProblem(req, o);
      if (denied) return denied;
      const channel = String(req.headers['x-splunk-request-channel'] ?? url.searchParams.get('channel') ?? '');
      if (channel && !GUID.test(channel)) return hec(400, 'Invalid data channel', 11);
      if (o.ack && !channel) return hec(400, 'Data channel is missing', 10);
      if (channel) out.channels.add(channel.toLowerCase());
      if (out.busy) return hec(503, 'Server is busy', 9);
      if (body.length > maxContentLength)
        return hec(413, `Content-Length of ${body.length} too large (maximum is ${maxContentLength})`, 413);

      if (path === '/services/collector/ack') {
        if (!o.ack) return hec(400, 'ACK is disabled', 14);
        let ids: unknown;
        try {
          ids = (JSON.parse(body.toString('utf8')) as { acks?: unknown }).acks;
        } catch {
          return hec(400, 'Invalid data format', 6);
        }
        if (!Array.isArray(ids) || !ids.every((x) => Number.isInteger(x))) return hec(400, 'Invalid data format', 6);
        out.ackPolls++;
        const state = acks.get(channel.toLowerCase());
        const answer: Record<string, boolean> = {};
        const confirms: string[] = [];
        for (const id of ids as number[]) {
          const pending = state?.pending.get(id);
          if (pending === undefined) {
            answer[String(id)] = false;
            continue;
          }
          // Indexed by the second poll: the sender must poll, not assume; once reported true, forgotten.
          pending.polls++;
          const indexed = out.indexing && pending.polls >= 2;
          if (indexed) {
            state?.pending.delete(id);
            confirms.push(...pending.ids);
          }
          answer[String(id)] = indexed;
        }
        // With acknowledgement, what Splunk confirms is what it reports indexed.
        return { status: 200, body: { acks: answer }, confirms };
      }

      if (!body.length) return hec(400, 'No data', 5);
      const objects = splitHecObjects(body.toString('utf8'));
      if (!objects?.length) return hec(400, 'Invalid data format', 6, { 'invalid-event-number': 0 });
      const ids: string[] = [];
      for (const [n, o2] of objects.entries()) {
        const e = o2 as Record<string, unknown>;
        if (typeof e !== 'object' || e === null || Array.isArray(e))
          return hec(400, 'Invalid data format', 6, { 'invalid-event-number': n });
        if (!('event' in e)) return hec(400, 'Event field is required', 12, { 'invalid-event-number': n });
        if (e.event === null || (typeof e.event === 'string' && !e.event.trim()))
          return hec(400, 'Event field cannot be blank', 13, { 'invalid-event-number': n });
        if (e.time !== undefined && !(typeof e.time === 'number' || (typeof e.time === 'string' && /^\d+(\.\d+)?$/.test(e.time))))
          return hec(400, 'Invalid data format', 6, { 'invalid-event-number': n });
        for (const k of ['host', 'source', 'sourcetype', 'index'])
          if (e[k] !== undefined && typeof e[k] !== 'string')
            return hec(400, 'Invalid data format', 6, { 'invalid-event-number': n });
        if (typeof e.index === 'string' && !(o.indexes ?? []).includes(e.index))
          return hec(400, 'Incorrect index', 7, { 'invalid-event-number': n });
        const id = (e.event as { id?: unknown } | null)?.id;
        ids.push(typeof id === 'string' ? id : '');
      }
      rec.received.push(...ids);
      out.events.push(...(objects as Record<string, unknown>[]));
      if (!o.ack) return hec(200, 'Success', 0);
      const key = channel.toLowerCase();
      const state = acks.get(key) ?? { next: 0, pending: new Map<number, { polls: number; ids: string[] }>() };
      acks.set(key, state);
      const ackId = state.next++;
      state.pending.set(ackId, { polls: 0, ids });
      return { ...hec(200, 'Success', 0, { ackId }), confirms: [] };
    },
    port,
    // Splunk's own busy answer; a 429 comes from what stands in front of HEC (a load balancer).
    { unavailable: hec(503, 'Server is busy', 9), tooManyRequests: { status: 429, body: { text: 'Too Many Requests' } } },
  );
  const out = Object.assign(r, extra);
  return out;
}
