import { createHmac, randomBytes } from 'node:crypto';
import { gunzipSync, inflateSync } from 'node:zlib';
import { qradarSyslogReceiver } from './qradar-receivers.ts';
import { lines, listen, type Receiver, type Tls } from './siem-listen.ts';

export { QRADAR_SOURCE, qradarHttpReceiver } from './qradar-receivers.ts';
/**
 * Local stand-ins for the SIEM vendors' ingestion endpoints, each checking what the vendor's own
 * service checks (authentication, framing, headers, signatures) and refusing anything else with the
 * vendor's status, so a test passes only when the Hub speaks the real wire format. `down` makes a
 * receiver answer 503 (or drop the connection) to play an outage. Every event id received is kept.
 */
export { type Receiver, selfSignedCert } from './siem-listen.ts';
export { SPLUNK_TOKEN, splunkReceiver } from './splunk-hec-receiver.ts';
export { WEBHOOK_SIGNING_SECRET, WEBHOOK_TOKEN, webhookReceiver } from './webhook-receiver.ts';

export const SENTINEL_WORKSPACE = 'b3c4d5e6-7f80-4912-a3b4-c5d6e7f80912';
export const SENTINEL_KEY = Buffer.from('sentinel-shared-key-for-tests-0123456789').toString('base64');
/** Sentinel Logs Ingestion: the Entra app, the data collection rule and its stream the receiver knows. */
export const SENTINEL_APP = {
  tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47',
  client_id: '0d8f3b1e-5a2c-4e7f-9b6d-3c1a2e4f5d60',
  client_secret: 'Xy8Q~entra-app-secret-for-tests.0123456789',
  dcr_immutable_id: 'dcr-0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  stream_name: 'Custom-LatchkeyEvents',
};

/** The token in a Sumo Logic HTTP Source's unique address (`/receiver/v1/http/<token>`). */
export const SUMO_TOKEN = 'ZaVnC4dhaV3Xq0';

/**
 * Sumo Logic's HTTP Logs and Metrics Source ("Upload Data to an HTTP Source"): POST to the
 * source's unique address (another token is 401), one log line per line, the body as sent or
 * compressed (Content-Encoding gzip or deflate); X-Sumo-Category, -Name and -Host are optional
 * and, when sent, not empty; 429 when throttled, 503 when unavailable.
 */
export function sumoReceiver(tlsOptions: { key: string; cert: string }) {
  return listen(
    tlsOptions,
    (req, body, r) => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      if (!path.startsWith('/receiver/v1/http/')) return { status: 404, body: {} };
      if (req.method !== 'POST') return { status: 405, body: {} };
      if (path !== `/receiver/v1/http/${SUMO_TOKEN}`) return { status: 401, body: { message: 'Invalid URL token' } };
      for (const h of ['x-sumo-category', 'x-sumo-name', 'x-sumo-host'])
        if (req.headers[h] !== undefined && !String(req.headers[h]).trim()) return { status: 400, body: { message: h } };
      let text: Buffer;
      try {
        const encoding = req.headers['content-encoding'];
        text = encoding === 'gzip' ? gunzipSync(body) : encoding === 'deflate' ? inflateSync(body) : body;
        if (encoding && encoding !== 'gzip' && encoding !== 'deflate') return { status: 415, body: { message: 'encoding' } };
      } catch {
        return { status: 400, body: { message: 'The body does not decompress' } };
      }
      r.received.push(...lines(text).map((l) => (JSON.parse(l) as { id: string }).id));
      return { status: 200, body: null };
    },
    0,
    {
      unavailable: { status: 503, body: { message: 'Service Unavailable' } },
      tooManyRequests: { status: 429, body: { message: 'Too Many Requests' } },
    },
  );
}

/** Sentinel's Data Collector API: `SharedKey <workspace>:<HMAC-SHA256>` over the documented string, a JSON array. */
export function sentinelReceiver(tlsOptions: { key: string; cert: string }, port = 0) {
  return listen(
    tlsOptions,
    (req, body, r) => {
      const url = new URL(req.url ?? '/', 'https://x');
      if (url.pathname !== `/${SENTINEL_WORKSPACE}/api/logs` || url.searchParams.get('api-version') !== '2016-04-01')
        return { status: 404, body: {} };
      const date = String(req.headers['x-ms-date'] ?? '');
      if (Math.abs(Date.now() - Date.parse(date)) > 15 * 60_000) return { status: 403, body: { Error: 'InvalidDate' } };
      const toSign = `POST\n${body.length}\napplication/json\nx-ms-date:${date}\n/api/logs`;
      const sig = createHmac('sha256', Buffer.from(SENTINEL_KEY, 'base64')).update(toSign, 'utf8').digest('base64');
      if (req.headers.authorization !== `SharedKey ${SENTINEL_WORKSPACE}:${sig}`)
        return { status: 403, body: { Error: 'InvalidAuthorization' } };
      if (!/^[A-Za-z0-9_]{1,100}$/.test(String(req.headers['log-type'] ?? '')))
        return { status: 400, body: { Error: 'InvalidLogType' } };
      if (!req.headers['content-type']) return { status: 400, body: { Error: 'MissingContentType' } };
      if (req.headers['content-type'] !== 'application/json') return { status: 400, body: { Error: 'UnsupportedContentType' } };
      if (body.length > 30 * 1024 * 1024) return { status: 413, body: { Error: 'RequestEntityTooLarge' } };
      let events: unknown;
      try {
        events = JSON.parse(body.toString('utf8'));
      } catch {
        return { status: 400, body: { Error: 'InvalidDataFormat' } };
      }
      if (!Array.isArray(events) || !events.every((e) => typeof e === 'object' && e !== null && !Array.isArray(e)))
        return { status: 400, body: { Error: 'InvalidDataFormat' } };
      r.received.push(...(events as { id: string }[]).map((e) => e.id));
      return { status: 200, body: null };
    },
    port,
    {
      unavailable: { status: 503, body: { Error: 'ServiceUnavailable' } },
      tooManyRequests: { status: 429, body: { Error: 'TooManyRequests' } },
    },
  );
}

/** QRadar's TLS Syslog listener (qradar-receivers.ts has its TCP Syslog and HTTP Receiver too). */
export const qradarReceiver = (tls: Tls, port = 0) => qradarSyslogReceiver(tls, port);

/**
 * Sentinel's Logs Ingestion API and the Entra ID token endpoint in one server, each checking what
 * Azure checks: the client-credentials grant (form-encoded; grant_type, client id and secret, the
 * scope `https://monitor.azure.com//.default`) at `/{tenant}/oauth2/v2.0/token`; then the upload at
 * `/dataCollectionRules/{dcr}/streams/{stream}?api-version=2023-01-01` with a bearer token it issued,
 * `Content-Type: application/json`, an optionally gzip-encoded JSON array of at most 1 MB with
 * `TimeGenerated` on each record; 204 when taken. `tokensIssued` counts tokens (the sender reuses them).
 */
export async function sentinelIngestionReceiver(
  tlsOptions: { key: string; cert: string },
  port = 0,
): Promise<Receiver & { tokenUrl: string; tokensIssued: number; revokeTokens: () => void }> {
  const issued = new Set<string>();
  const extra = {
    tokenUrl: '',
    tokensIssued: 0,
    /** Azure forgets every token it issued (revoked, or a new receiver): uploads with them get 401. */
    revokeTokens: () => issued.clear(),
  };
  let out: Receiver & typeof extra;
  const r = await listen(
    tlsOptions,
    (req, body, rec) => {
      const url = new URL(req.url ?? '/', 'https://x');
      if (url.pathname === `/${SENTINEL_APP.tenant_id}/oauth2/v2.0/token`) {
        if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
          return { status: 400, body: { error: 'invalid_request' } };
        const form = new URLSearchParams(body.toString('utf8'));
        if (form.get('grant_type') !== 'client_credentials') return { status: 400, body: { error: 'unsupported_grant_type' } };
        if (form.get('scope') !== 'https://monitor.azure.com//.default') return { status: 400, body: { error: 'invalid_scope' } };
        if (form.get('client_id') !== SENTINEL_APP.client_id || form.get('client_secret') !== SENTINEL_APP.client_secret)
          return { status: 401, body: { error: 'invalid_client', error_codes: [7000215] } };
        const token = randomBytes(24).toString('base64url');
        issued.add(token);
        out.tokensIssued++;
        return { status: 200, body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token } };
      }
      const m = /^\/dataCollectionRules\/([^/]+)\/streams\/([^/]+)$/.exec(url.pathname);
      if (!m || m[1] !== SENTINEL_APP.dcr_immutable_id || m[2] !== SENTINEL_APP.stream_name)
        return { status: 404, body: { error: { code: 'NotFound', message: 'Data collection rule or stream not found' } } };
      if (url.searchParams.get('api-version') !== '2023-01-01')
        return { status: 400, body: { error: { code: 'InvalidApiVersion', message: 'api-version' } } };
      const auth = String(req.headers.authorization ?? '');
      if (!auth.startsWith('Bearer ') || !issued.has(auth.slice(7)))
        return { status: 401, body: { error: { code: 'InvalidToken', message: 'The token is not valid' } } };
      if (!String(req.headers['content-type']).startsWith('application/json'))
        return { status: 415, body: { error: { code: 'UnsupportedMediaType', message: 'content-type' } } };
      if (body.length > 1_000_000)
        return { status: 413, body: { error: { code: 'ContentLengthLimitExceeded', message: '1 MB' } } };
      let text: Buffer;
      try {
        text = req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
      } catch {
        return { status: 400, body: { error: { code: 'InvalidContentEncoding', message: 'gzip' } } };
      }
      if (text.length > 1_000_000)
        return { status: 413, body: { error: { code: 'ContentLengthLimitExceeded', message: '1 MB' } } };
      let records: unknown;
      try {
        records = JSON.parse(text.toString('utf8'));
      } catch {
        return { status: 400, body: { error: { code: 'InvalidJson', message: 'body' } } };
      }
      if (
        !Array.isArray(records) ||
        !records.every(
          (x: { TimeGenerated?: unknown; id?: unknown }) =>
            typeof x.TimeGenerated === 'string' && !Number.isNaN(Date.parse(x.TimeGenerated)) && typeof x.id === 'string',
        )
      )
        return { status: 400, body: { error: { code: 'InvalidPayload', message: 'A JSON array of records is expected' } } };
      rec.received.push(...(records as { id: string }[]).map((x) => x.id));
      return { status: 204, body: null };
    },
    port,
    {
      unavailable: { status: 503, body: { error: { code: 'ServiceUnavailable', message: 'The service is unavailable' } } },
      tooManyRequests: { status: 429, body: { error: { code: 'TooManyRequests', message: 'Too many requests' } } },
    },
  );
  extra.tokenUrl = `${r.url}/{tenant_id}/oauth2/v2.0/token`;
  out = Object.assign(r, extra);
  return out;
}
