import { createHmac, timingSafeEqual } from 'node:crypto';
import { listen, type Receiver, type Tls } from './siem-listen.ts';

/**
 * Stand-ins for where alerts go, each refusing what its real counterpart would: a receiver of the
 * signed alert webhook (it checks the HMAC over "<timestamp>.<body>" and the timestamp's age),
 * Slack's incoming webhook (`text` with Block Kit `blocks`) and Microsoft Teams' (a message with
 * one Adaptive Card attachment). Each keeps the bodies it took.
 */
export const ALERT_SIGNING_SECRET = 'alert-signing-secret-0123456789abcdef';

export type AlertReceiver = Receiver & { bodies: Record<string, unknown>[] };

const json = (body: Buffer): Record<string, unknown> | null => {
  try {
    const v = JSON.parse(body.toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

async function receiver(tls: Tls, check: (req: { headers: Record<string, unknown> }, body: Buffer) => string | null) {
  const bodies: Record<string, unknown>[] = [];
  const r = await listen(tls, (req, body, rec) => {
    if (req.method !== 'POST') return { status: 405, body: { error: 'method' } };
    if (req.headers['content-type'] !== 'application/json') return { status: 415, body: { error: 'type' } };
    const problem = check(req, body);
    if (problem) return { status: 400, body: { error: problem } };
    const parsed = json(body) as Record<string, unknown>;
    bodies.push(parsed);
    rec.received.push(String(parsed.id ?? bodies.length));
    return { status: 200, body: { ok: true } };
  });
  return Object.assign(r, { bodies }) as AlertReceiver;
}

/** The generic signed webhook, verified as its docs tell a receiver to: signature, then a timestamp within five minutes. */
export const alertWebhookReceiver = (tls: Tls, secret = ALERT_SIGNING_SECRET) =>
  receiver(tls, (req, body) => {
    const timestamp = String(req.headers['x-latchkey-timestamp'] ?? '');
    const given = Buffer.from(String(req.headers['x-latchkey-signature'] ?? ''));
    const expected = Buffer.from(
      `sha256=${createHmac('sha256', secret)
        .update(`${timestamp}.${body.toString('utf8')}`)
        .digest('hex')}`,
    );
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'signature';
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return 'timestamp';
    if (!req.headers['idempotency-key']) return 'idempotency key';
    const b = json(body);
    return b && typeof b.id === 'string' && Array.isArray(b.events) ? null : 'body';
  });

/** Slack: `text` is required (the notification's fallback); `blocks`, when sent, are Block Kit blocks with a type. */
export const slackReceiver = (tls: Tls) =>
  receiver(tls, (_req, body) => {
    const b = json(body);
    if (!b || typeof b.text !== 'string' || !b.text) return 'no_text';
    if (
      b.blocks !== undefined &&
      !(Array.isArray(b.blocks) && b.blocks.every((x) => typeof (x as { type?: unknown }).type === 'string'))
    )
      return 'invalid_blocks';
    return null;
  });

/** Teams: `{type: "message", attachments: [{contentType: "application/vnd.microsoft.card.adaptive", content: AdaptiveCard}]}`. */
export const teamsReceiver = (tls: Tls) =>
  receiver(tls, (_req, body) => {
    const b = json(body);
    const card = (b?.attachments as { contentType?: string; content?: Record<string, unknown> }[] | undefined)?.[0];
    if (b?.type !== 'message' || !card) return 'not a message';
    if (card.contentType !== 'application/vnd.microsoft.card.adaptive') return 'content type';
    const c = card.content;
    if (c?.type !== 'AdaptiveCard' || typeof c.version !== 'string' || !Array.isArray(c.body) || !c.body.length) return 'card';
    return null;
  });
