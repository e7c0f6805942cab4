import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { listen, type Receiver, type Tls } from './siem-listen.ts';

/**
 * An integrator's endpoint for the Latchkey webhook, built from docs/webhook.md alone: it checks
 * the bearer token, the content type and the idempotency key the document names, and verifies
 * each delivery with the document's own Node recipe (its code block, copied out and imported as it
 * stands), so a delivery passes only if the document is right about the Hub.
 */
export const WEBHOOK_TOKEN = 'whsec_0123456789abcdef0123456789abcdef';
export const WEBHOOK_SIGNING_SECRET = 'lk-signing-2f9c4e1a7b3d8e6f0a5c9b2d4e7f1a3c';

type Verify = (o: { secret: string; headers: Record<string, unknown>; body: Buffer | string; now?: number }) => {
  id: string;
}[];

const DOC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../docs/webhook.md');

/** The verification recipe of docs/webhook.md: its ```js block that exports verifyLatchkeyDelivery. */
export async function webhookRecipe(): Promise<Verify> {
  const blocks = [...readFileSync(DOC, 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const code = blocks.find((b) => b.includes('export function verifyLatchkeyDelivery'));
  if (!code) throw new Error('docs/webhook.md has no verification recipe');
  const file = join(mkdtempSync(join(tmpdir(), 'latchkey-webhook-recipe-')), 'verify.mjs');
  writeFileSync(file, code);
  return ((await import(pathToFileURL(file).href)) as { verifyLatchkeyDelivery: Verify }).verifyLatchkeyDelivery;
}

export type WebhookReceiver = Receiver & {
  signingSecret: string;
  /** Each taken delivery's Idempotency-Key, and the last delivery as it arrived. */
  keys: string[];
  last: { headers: Record<string, unknown>; body: Buffer } | null;
};

export async function webhookReceiver(tls: Tls, port = 0): Promise<WebhookReceiver> {
  const verify = await webhookRecipe();
  const extra = {
    signingSecret: WEBHOOK_SIGNING_SECRET,
    keys: [] as string[],
    last: null as WebhookReceiver['last'],
  };
  const r = await listen(
    tls,
    (req, body, rec) => {
      if (req.method !== 'POST') return { status: 405, body: { error: 'method' } };
      out.last = { headers: { ...req.headers }, body };
      if (req.headers.authorization !== `Bearer ${WEBHOOK_TOKEN}`) return { status: 401, body: { error: 'token' } };
      if (req.headers['content-type'] !== 'application/x-ndjson') return { status: 415, body: { error: 'type' } };
      const key = String(req.headers['idempotency-key'] ?? '');
      if (!/^[^:]+:\d+-\d+$/.test(key)) return { status: 400, body: { error: 'idempotency key' } };
      let events: { id: string }[];
      try {
        events = verify({ secret: out.signingSecret, headers: req.headers, body });
      } catch (error) {
        return { status: 401, body: { error: error instanceof Error ? error.message : 'signature' } };
      }
      out.keys.push(key);
      rec.received.push(...events.map((e) => e.id));
      return { status: 204, body: null };
    },
    port,
    {
      unavailable: { status: 503, body: { error: 'unavailable' } },
      tooManyRequests: { status: 429, body: { error: 'slow down' } },
    },
  );
  const out = Object.assign(r, extra);
  return out;
}
