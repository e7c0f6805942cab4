import { createHash, createHmac, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { cutByBytes, DeliveryError, post, type SenderContext, type SiemConfig, sendParts, str } from './sender-http.ts';

/** Compressed on libuv's threads, not the event loop's. */
const gzip = promisify(gzipCallback);

/**
 * Microsoft Sentinel through the Azure Monitor Logs Ingestion API (api-version 2023-01-01):
 * an Entra app's client credentials buy a bearer token for `https://monitor.azure.com//.default`
 * (OAuth 2.0 client-credentials grant at the tenant's token endpoint), then each batch is POSTed as
 * a gzip-compressed JSON array to `{dce}/dataCollectionRules/{dcr immutable id}/streams/{stream}`.
 * Azure answers 204 when it took the batch; calls are at most 1 MB, so a batch is cut to fit.
 */
const MONITOR_SCOPE = 'https://monitor.azure.com//.default';
const LOGS_INGESTION_API_VERSION = '2023-01-01';
/** Azure's limit on one call's body, uncompressed. */
const MAX_CALL_BYTES = 1_000_000;

type Token = { value: string; expiresAt: number };
/** Tokens per app credential (and token endpoint), reused until five minutes before they expire. */
const tokens = new Map<string, Token>();

const tokenKey = (url: string, c: SiemConfig) =>
  createHash('sha256')
    .update([url, str(c, 'tenant_id'), str(c, 'client_id'), str(c, 'client_secret')].join('\n'))
    .digest('hex');

async function token(c: SiemConfig, ctx: SenderContext): Promise<{ value: string; key: string; cached: boolean }> {
  const url = ctx.sentinelTokenUrl.replace('{tenant_id}', encodeURIComponent(str(c, 'tenant_id')));
  const key = tokenKey(url, c);
  const cached = tokens.get(key);
  if (cached && cached.expiresAt > Date.now()) return { value: cached.value, key, cached: true };
  const res = await post(ctx, url, {
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: str(c, 'client_id'),
      client_secret: str(c, 'client_secret'),
      scope: MONITOR_SCOPE,
    }).toString(),
  }).catch((error: unknown) => {
    // Entra answers 400/401 (invalid_client, unauthorized_client) to wrong credentials: the form's fault, not a passing outage.
    if (error instanceof DeliveryError && (error.status === 400 || error.status === 401))
      throw new DeliveryError('Microsoft Entra ID refused the app credentials.', true);
    throw error;
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown; token_type?: unknown };
  if (typeof body.access_token !== 'string' || !body.access_token)
    throw new DeliveryError('Microsoft Entra ID did not issue an access token.', true);
  const lifetime = Number(body.expires_in) > 0 ? Number(body.expires_in) : 3600;
  tokens.set(key, { value: body.access_token, expiresAt: Date.now() + Math.max(60, lifetime - 300) * 1000 });
  return { value: body.access_token, key, cached: false };
}

/** Records cut into calls of at most 1 MB (a JSON array each). */
export const chunkRecords = (records: object[], max = MAX_CALL_BYTES): string[] =>
  cutByBytes(records, (r) => JSON.stringify(r), { max, open: '[', join: ',', close: ']' }).map((p) => p.body);

export async function sentinelLogsIngestion(
  events: ({ occurred_at: string; seq: number } & Record<string, unknown>)[],
  c: SiemConfig,
  ctx: SenderContext,
): Promise<void> {
  const base = new URL(str(c, 'dce_endpoint'));
  const url = new URL(base);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}/dataCollectionRules/${encodeURIComponent(str(c, 'dcr_immutable_id'))}/streams/${encodeURIComponent(str(c, 'stream_name'))}`;
  url.search = new URLSearchParams({ 'api-version': LOGS_INGESTION_API_VERSION }).toString();
  // TimeGenerated: the column every Log Analytics table has; the DCR maps the rest to the stream's columns.
  const records = events.map((e) => ({ TimeGenerated: e.occurred_at, ...e }));
  const calls = cutByBytes(records, (r) => JSON.stringify(r), { max: MAX_CALL_BYTES, open: '[', join: ',', close: ']' });
  let bearer = await token(c, ctx);
  const upload = async (call: string) =>
    post(ctx, url.toString(), {
      headers: {
        authorization: `Bearer ${bearer.value}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'x-ms-client-request-id': randomUUID(),
      },
      body: await gzip(call),
    });
  await sendParts(calls, async (call) => {
    try {
      await upload(call);
    } catch (error) {
      // A revoked or expired token is forgotten; one we had kept is replaced at once and the call tried again.
      tokens.delete(bearer.key);
      if (!(bearer.cached && error instanceof DeliveryError && error.status === 401)) throw error;
      bearer = await token(c, ctx);
      await upload(call).catch((again: unknown) => {
        tokens.delete(bearer.key);
        throw again;
      });
    }
  });
}

/** Microsoft Sentinel, Data Collector API: a JSON array signed with the workspace's shared key (SharedKey HMAC-SHA256). */
export async function sentinelDataCollector(records: object[], c: SiemConfig, ctx: SenderContext) {
  const workspace = str(c, 'workspace_id');
  const body = Buffer.from(JSON.stringify(records));
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
