import { createHmac } from 'node:crypto';
import type { AlertDestination } from '@latchkey/contracts';
import { type MailOutbox, outboundFetch, type Queryable } from '@latchkey/runtime';
import { hubOutboundPolicy } from '../../platform/outbound.ts';
import type { DestinationSecrets } from './alert-destinations.ts';
import { type AlertMessage, mailOf, slackBody, teamsBody, webhookBody } from './alert-messages.ts';

export interface SendContext {
  mail: MailOutbox;
  db: Queryable;
  /** Extra trusted certificate authorities (PEM). */
  ca?: string | undefined;
}

/** The webhook's signature, as the SIEM webhook signs: HMAC-SHA256 of "<timestamp>.<body>" with the destination's secret. */
export const alertSignature = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

async function postJson(url: string, body: string, headers: Record<string, string>, ctx: SendContext) {
  const res = await outboundFetch(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, ...(ctx.ca ? { ca: ctx.ca } : {}) },
    hubOutboundPolicy(),
  );
  if (res.status < 200 || res.status >= 300) throw new Error(`The destination answered with status ${res.status}.`);
}

/** Sends one firing to one destination; throws when it was not taken (the job queue retries). */
export async function sendAlert(d: AlertDestination, secrets: DestinationSecrets, m: AlertMessage, ctx: SendContext) {
  const secret = secrets[d.id] ?? {};
  switch (d.kind) {
    case 'email':
      // Into the Hub's mail outbox (retried there); one message per recipient, each once per firing.
      for (const to of d.recipients) await ctx.mail.send(ctx.db, { to, ...mailOf(m) }, `alert:${m.firingId}:${to}`);
      return;
    case 'webhook': {
      if (!secret.signing_secret) throw new Error('The webhook has no signing secret: edit the rule and set one.');
      const body = webhookBody(m);
      const timestamp = String(Math.floor(Date.now() / 1000));
      await postJson(
        d.url,
        body,
        {
          'idempotency-key': m.firingId,
          'x-latchkey-timestamp': timestamp,
          'x-latchkey-signature': alertSignature(secret.signing_secret, timestamp, body),
        },
        ctx,
      );
      return;
    }
    case 'slack':
    case 'teams':
      if (!secret.url) throw new Error('The address is missing: edit the rule and give it again.');
      await postJson(secret.url, d.kind === 'slack' ? slackBody(m) : teamsBody(m), {}, ctx);
      return;
    case 'siem':
      // The alert.fired event in the team's log is the delivery.
      return;
  }
}
