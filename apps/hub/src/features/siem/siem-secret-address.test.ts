import type { SiemTool } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHub } from '../../testing/hub-fixture.ts';
import { siemCalls, startSiemHub } from '../../testing/siem-hub.ts';
import {
  type Receiver,
  SENTINEL_APP,
  SENTINEL_KEY,
  SENTINEL_WORKSPACE,
  SPLUNK_TOKEN,
  selfSignedCert,
  sentinelIngestionReceiver,
  sentinelReceiver,
  splunkReceiver,
  WEBHOOK_SIGNING_SECRET,
  WEBHOOK_TOKEN,
  webhookReceiver,
} from '../../testing/siem-receivers.ts';

/**
 * A stored SIEM secret goes only where it went before: an edit that moves the destination (URL,
 * port, path, Sentinel's workspace, tenant or collection endpoint) or stops checking its certificate
 * and leaves the secret empty is refused before anything is sent, so a listener at the new address
 * receives nothing. Each vendor's "new address" is a second receiver of the same kind (or, where the
 * Hub's configuration fixes the host, the same one under another name), counting every request.
 */
let hub: RunningHub;
let admin: Record<string, string>;
let close: () => Promise<void>;
const at = {} as Record<'splunk' | 'splunkElsewhere' | 'webhook' | 'webhookElsewhere' | 'sentinel', Receiver> & {
  ingestion: Awaited<ReturnType<typeof sentinelIngestionReceiver>>;
  ingestionElsewhere: Awaited<ReturnType<typeof sentinelIngestionReceiver>>;
};

beforeAll(async () => {
  const tls = selfSignedCert();
  [at.splunk, at.splunkElsewhere, at.webhook, at.webhookElsewhere, at.sentinel, at.ingestion, at.ingestionElsewhere] =
    await Promise.all([
      splunkReceiver(tls),
      splunkReceiver(tls),
      webhookReceiver(tls),
      webhookReceiver(tls),
      sentinelReceiver(tls),
      sentinelIngestionReceiver(tls),
      sentinelIngestionReceiver(tls),
    ]);
  ({ hub, admin, close } = await startSiemHub({
    SIEM_CA_FILE: tls.certFile,
    SENTINEL_DATA_COLLECTOR_URL: `${at.sentinel.url}/{workspace_id}/api/logs?api-version=2016-04-01`,
    SENTINEL_TOKEN_URL: at.ingestion.tokenUrl,
  }));
});
afterAll(() => close?.());

const { configure, update } = siemCalls(() => ({ hub, admin }));
const remove = (id: string) => update(id, 'delete');

/** Saves `form` (with its secret), then tries each edit with the secret left empty. */
async function saved(form: Record<string, unknown>): Promise<string> {
  const res = await configure(form);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as SiemTool).id;
}

/** The edit is refused with the message key on the secret's field, and `listener` took no request. */
async function refusedUnsent(edit: Record<string, unknown>, secret: string, listener: Receiver) {
  const before = listener.requests;
  const res = await configure(edit);
  expect(listener.requests, 'the listener at the new address was called').toBe(before);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({
    code: 'invalid_input',
    message_key: 'siem.form.secret_again',
    issues: [{ path: secret, message: 'siem.form.secret_again' }],
  });
}

const splunkForm = () => ({
  siem_tool: 'splunk',
  url: 'https://127.0.0.1',
  port: String(at.splunk.port),
  path: '',
  token: SPLUNK_TOKEN,
  allow_unverified_certificate: false,
});
const webhookForm = () => ({
  siem_tool: 'other',
  url: `${at.webhook.url}/ingest`,
  token: WEBHOOK_TOKEN,
  signing_secret: WEBHOOK_SIGNING_SECRET,
  allow_unverified_certificate: false,
});
const ingestionForm = () => ({
  siem_tool: 'azure_sentinel',
  api: 'logs_ingestion',
  ...SENTINEL_APP,
  dce_endpoint: at.ingestion.url,
});

describe('a stored SIEM secret never goes to a new address', () => {
  it('Splunk: a new port, host or path needs the HEC token again', async () => {
    const id = await saved(splunkForm());
    const kept = { ...splunkForm(), token: '', id };
    await refusedUnsent({ ...kept, port: String(at.splunkElsewhere.port) }, 'token', at.splunkElsewhere);
    await refusedUnsent(
      { ...kept, url: `https://127.0.0.1:${at.splunkElsewhere.port}`, port: String(at.splunkElsewhere.port) },
      'token',
      at.splunkElsewhere,
    );
    await refusedUnsent({ ...kept, url: 'https://localhost' }, 'token', at.splunk);
    await refusedUnsent({ ...kept, path: '/services/collector/raw' }, 'token', at.splunk);
    // The same address spelled another way keeps the token; given again, it may go to the new one.
    expect((await configure({ ...kept, url: 'https://127.0.0.1/' })).status).toBe(200);
    const moved = await configure({ ...kept, port: String(at.splunkElsewhere.port), token: SPLUNK_TOKEN });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(at.splunkElsewhere.received).toHaveLength(1);
    await remove(id);
  });

  it('webhook: a new URL, or a certificate no longer checked, needs the token again', async () => {
    const id = await saved(webhookForm());
    const kept = { ...webhookForm(), token: '', id };
    await refusedUnsent({ ...kept, url: `${at.webhookElsewhere.url}/ingest` }, 'token', at.webhookElsewhere);
    await refusedUnsent({ ...kept, url: `${at.webhook.url}/other` }, 'token', at.webhook);
    await refusedUnsent({ ...kept, allow_unverified_certificate: true }, 'token', at.webhook);
    const moved = await configure({ ...kept, url: `${at.webhookElsewhere.url}/ingest`, token: WEBHOOK_TOKEN });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(at.webhookElsewhere.received).toHaveLength(1);
    // Checking the certificate again is no new risk: the stored token stays.
    const relaxed = await configure({
      ...kept,
      url: `${at.webhookElsewhere.url}/ingest`,
      allow_unverified_certificate: true,
      token: WEBHOOK_TOKEN,
    });
    expect(relaxed.status).toBe(200);
    const strict = await configure({ ...kept, url: `${at.webhookElsewhere.url}/ingest` });
    expect(strict.status, JSON.stringify(strict.body)).toBe(200);
    await remove(id);
  });

  it('Sentinel Data Collector: another workspace needs the shared key again', async () => {
    const id = await saved({ siem_tool: 'azure_sentinel', workspace_id: SENTINEL_WORKSPACE, key: SENTINEL_KEY });
    await refusedUnsent(
      { siem_tool: 'azure_sentinel', workspace_id: 'a0a0a0a0-0000-4000-8000-000000000000', key: '', id },
      'key',
      at.sentinel,
    );
    const same = await configure({ siem_tool: 'azure_sentinel', workspace_id: SENTINEL_WORKSPACE, key: '', id });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    await remove(id);
  });

  it('Sentinel Logs Ingestion: another collection endpoint or tenant needs the client secret again', async () => {
    const id = await saved(ingestionForm());
    const kept = { ...ingestionForm(), client_secret: '', id };
    // The bearer token the stored secret buys would go to the new endpoint.
    await refusedUnsent({ ...kept, dce_endpoint: at.ingestionElsewhere.url }, 'client_secret', at.ingestionElsewhere);
    // The secret itself would go to another tenant's token endpoint.
    await refusedUnsent({ ...kept, tenant_id: 'f0f0f0f0-0000-4000-8000-000000000000' }, 'client_secret', at.ingestion);
    // The rule and stream are read at the same endpoint: the stored secret stays.
    const same = await configure(kept);
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    await remove(id);
  });
});
