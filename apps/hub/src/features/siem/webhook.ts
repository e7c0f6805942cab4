import { createHmac } from 'node:crypto';
import { DeliveryError, post, type SenderContext, type SiemConfig, str } from './sender-http.ts';

/**
 * The generic HTTPS webhook, as docs/webhook.md documents it for integrators: NDJSON (one event a
 * line), the admin's token as bearer, and a signature with the destination's own signing secret
 * (never the token): `X-Latchkey-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">` with
 * `X-Latchkey-Timestamp` (Unix seconds). `Idempotency-Key` names the batch by its first and last
 * event of the team's chain; each event's `id` is what a receiver de-duplicates on.
 */
type WebhookEvent = { seq: number; team_slug: string };

/** The signature base string is the timestamp, a dot, and the body exactly as sent. */
const webhookSignature = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

export async function webhook(events: WebhookEvent[], body: string, c: SiemConfig, ctx: SenderContext) {
  const secret = str(c, 'signing_secret');
  if (!secret) throw new DeliveryError('The webhook has no signing secret: edit the destination and set one.', true);
  const first = events[0];
  const last = events[events.length - 1];
  const timestamp = String(Math.floor(Date.now() / 1000));
  await post(ctx, str(c, 'url'), {
    headers: {
      authorization: `Bearer ${str(c, 'token')}`,
      'content-type': 'application/x-ndjson',
      'idempotency-key': `${first?.team_slug}:${first?.seq}-${last?.seq}`,
      'x-latchkey-timestamp': timestamp,
      'x-latchkey-signature': webhookSignature(secret, timestamp, body),
    },
    body,
    insecure: c.allow_unverified_certificate === true,
  });
}
