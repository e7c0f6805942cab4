import type { SiemTool } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../testing/clients.ts';
import { type RunningHub, TEAM } from '../../testing/hub-fixture.ts';
import { pollUntil, siemCalls, startSiemHub, type ToolReply } from '../../testing/siem-hub.ts';
import {
  QRADAR_SOURCE,
  qradarReceiver,
  type Receiver,
  SENTINEL_APP,
  SENTINEL_KEY,
  SENTINEL_WORKSPACE,
  SPLUNK_TOKEN,
  selfSignedCert,
  sentinelIngestionReceiver,
  sentinelReceiver,
  splunkReceiver,
  sumoReceiver,
  WEBHOOK_SIGNING_SECRET,
  WEBHOOK_TOKEN,
  webhookReceiver,
} from '../../testing/siem-receivers.ts';

let db: Db;
let hub: RunningHub;
let admin: Record<string, string>;
let close: () => Promise<void>;
const r = {} as Record<'splunk' | 'webhook' | 'sumo' | 'sentinel' | 'qradar', Receiver> & {
  sentinelIngestion: Awaited<ReturnType<typeof sentinelIngestionReceiver>>;
};

beforeAll(async () => {
  const tls = selfSignedCert();
  r.splunk = await splunkReceiver(tls);
  r.webhook = await webhookReceiver(tls);
  r.sumo = await sumoReceiver(tls);
  r.sentinel = await sentinelReceiver(tls);
  r.qradar = await qradarReceiver(tls);
  r.sentinelIngestion = await sentinelIngestionReceiver(tls);
  ({ db, hub, admin, close } = await startSiemHub({
    SIEM_CA_FILE: tls.certFile,
    SIEM_PUMP_INTERVAL_MS: '100',
    SENTINEL_DATA_COLLECTOR_URL: `${r.sentinel.url}/{workspace_id}/api/logs?api-version=2016-04-01`,
    SENTINEL_TOKEN_URL: r.sentinelIngestion.tokenUrl,
  }));
});
afterAll(() => close?.());

const { configure, update, tools, adminChanges } = siemCalls(() => ({ hub, admin }));
const until = (check: () => boolean | Promise<boolean>, ms = 15_000) => pollUntil(check, { ms });

/** The Hub's /metrics: switched-on SIEM destinations by state. */
async function destinationStates() {
  const text = await (await fetch(`${hub.url}/metrics`)).text();
  return Object.fromEntries([...text.matchAll(/^latchkey_siem_destinations\{state="(\w+)"\} (\d+)$/gm)].map((m) => [m[1], m[2]]));
}

const FORMS = {
  splunk: () => ({
    siem_tool: 'splunk',
    url: 'https://127.0.0.1',
    port: String(r.splunk.port),
    path: '',
    token: SPLUNK_TOKEN,
    allow_unverified_certificate: false,
  }),
  webhook: () => ({
    siem_tool: 'other',
    url: `${r.webhook.url}/ingest`,
    token: WEBHOOK_TOKEN,
    signing_secret: WEBHOOK_SIGNING_SECRET,
    allow_unverified_certificate: false,
  }),
  sumo: () => ({ siem_tool: 'sumo_logic', url: `${r.sumo.url}/receiver/v1/http/ZaVnC4dhaV3Xq0` }),
  sentinel: () => ({ siem_tool: 'azure_sentinel', workspace_id: SENTINEL_WORKSPACE, key: SENTINEL_KEY }),
  sentinelIngestion: () => ({
    siem_tool: 'azure_sentinel',
    api: 'logs_ingestion',
    ...SENTINEL_APP,
    dce_endpoint: r.sentinelIngestion.url,
  }),
  qradar: () => ({
    siem_tool: 'qradar',
    url: r.qradar.url,
    log_source_identifier: QRADAR_SOURCE,
    allow_unverified_certificate: false,
  }),
} as const;

describe('each vendor against its receiver', () => {
  for (const vendor of Object.keys(FORMS) as (keyof typeof FORMS)[]) {
    it(`${vendor}: test event on save, configured inactive → active, admin changes delivered, secrets never sent back`, async () => {
      const before = r[vendor].received.length;
      const saved = await configure(FORMS[vendor]());
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(r[vendor].received.length).toBe(before + 1);
      const tool = saved.body.data as SiemTool;
      expect(tool).toMatchObject({ is_active: false, status: 'tested', last_synced: null });
      expect(JSON.stringify(saved.body)).not.toContain(SPLUNK_TOKEN);
      expect(JSON.stringify(saved.body)).not.toContain(WEBHOOK_TOKEN);
      expect(JSON.stringify(saved.body)).not.toContain(SENTINEL_KEY);
      expect(JSON.stringify(saved.body)).not.toContain(SENTINEL_APP.client_secret);

      expect((await update(tool.id, 'activate')).body.data).toMatchObject({ is_active: true, status: 'active' });
      const ids = await adminChanges(3);
      await until(() => ids.every((id) => r[vendor].received.includes(id)));
      expect(r[vendor].rejected).toEqual([]);
      await until(async () => ((await tools()).body.data?.health.lag ?? 1) === 0);
      const health = (await tools()).body.data;
      expect(health?.last_synced).toBeGreaterThan(0);
      expect(health?.health.delivered_count).toBeGreaterThanOrEqual(3);

      // Edit and delete are refused while active (spec §4).
      expect((await configure({ ...FORMS[vendor](), id: tool.id })).body).toMatchObject({ code: 'not_allowed' });
      expect((await update(tool.id, 'delete')).body).toMatchObject({ code: 'not_allowed' });
      expect((await update(tool.id, 'deactivate')).body.data).toMatchObject({ is_active: false, status: 'inactive' });
      expect((await update(tool.id, 'delete')).body).toEqual({ code: 'deleted', data: null });
      expect((await tools()).body).toEqual({ code: 'not_found', data: null });
    });
  }
});

describe('the form and failures', () => {
  it('refuses an unreachable destination with url_not_accessible and saves nothing', async () => {
    const res = await configure({ ...FORMS.webhook(), url: 'https://127.0.0.1:1/ingest' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'url_not_accessible' });
    expect((await tools()).body.code).toBe('not_found');
    const wrongToken = await configure({ ...FORMS.splunk(), token: 'nope' });
    expect(wrongToken.body).toMatchObject({ code: 'url_not_accessible' });
  });

  it('a refused test leaves a saved destination waiting for a test (spec §4), until a test passes', async () => {
    const saved = await configure(FORMS.webhook());
    const tool = saved.body.data as SiemTool;
    expect(tool.status).toBe('tested');
    r.webhook.down = true;
    try {
      const refused = await update(tool.id, 'test');
      expect(refused.body).toMatchObject({ code: 'url_not_accessible' });
      const waiting = (await tools()).body.data;
      expect(waiting?.status).toBe('awaiting_config_verification');
      expect(waiting?.health.last_error).toBeTruthy();
    } finally {
      r.webhook.down = false;
    }
    expect((await update(tool.id, 'test')).body.data).toMatchObject({ status: 'tested', health: { last_error: null } });
    // Activation and deactivation keep their own states; a passing test does not revive a deactivated one.
    expect((await update(tool.id, 'activate')).body.data).toMatchObject({ status: 'active' });
    expect((await update(tool.id, 'deactivate')).body.data).toMatchObject({ status: 'inactive' });
    expect((await update(tool.id, 'test')).body.data).toMatchObject({ status: 'inactive' });
    expect((await update(tool.id, 'delete')).body.code).toBe('deleted');
  });

  it('Sentinel Logs Ingestion: wrong app credentials are url_not_accessible; one token serves many batches; a revoked one is replaced at once', async () => {
    const wrong = await configure({ ...FORMS.sentinelIngestion(), client_secret: 'not-the-secret' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'url_not_accessible' });
    const wrongStream = await configure({ ...FORMS.sentinelIngestion(), stream_name: 'Custom-Other' });
    expect(wrongStream.body).toMatchObject({ code: 'url_not_accessible' });
    const saved = await configure(FORMS.sentinelIngestion());
    const id = (saved.body.data as SiemTool).id;
    expect((saved.body.data as SiemTool).config).toMatchObject({ api: 'logs_ingestion', client_id: SENTINEL_APP.client_id });
    expect((saved.body.data as SiemTool).has_secret).toBe(true);
    await update(id, 'activate');
    const issued = r.sentinelIngestion.tokensIssued;
    const first = await adminChanges(3);
    await until(() => first.every((x) => r.sentinelIngestion.received.includes(x)));
    const second = await adminChanges(3);
    await until(() => second.every((x) => r.sentinelIngestion.received.includes(x)));
    expect(r.sentinelIngestion.tokensIssued).toBe(issued);
    // A kept token Azure no longer takes (revoked; a Hub restart meets a new one anyway) is replaced at once.
    r.sentinelIngestion.revokeTokens();
    const tested = await update(id, 'test');
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(r.sentinelIngestion.tokensIssued).toBe(issued + 1);
    const third = await adminChanges(2);
    await until(() => third.every((x) => r.sentinelIngestion.received.includes(x)));
    expect(r.sentinelIngestion.tokensIssued).toBe(issued + 1);
    expect((await tools()).body.data?.health.last_error).toBeNull();
    await update(id, 'deactivate');
    // Editing keeps the stored client secret when the field is left empty.
    const edited = await configure({ ...FORMS.sentinelIngestion(), client_secret: '', id });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await update(id, 'delete');
  });

  it("records the admin's IP and device with the Hub's own console actions", async () => {
    const ua =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const saved = await send<ToolReply>(
      hub,
      '/siem/tools/configure/',
      { team_slug: TEAM, ...FORMS.sumo() },
      { ...admin, 'user-agent': ua },
    );
    const id = (saved.body.data as SiemTool).id;
    const [row] = await db.query<{ ip: string; device: string }>(
      "select ip, device from event_log where team_slug = $1 and activity in ('siem.configured', 'siem.updated') order by seq desc limit 1",
      [TEAM],
    );
    expect(row).toEqual({ ip: '127.0.0.1', device: 'Chrome 131 on macOS' });
    await update(id, 'delete');
  });

  it('validates the form as spec §5 says', async () => {
    for (const bad of [
      { ...FORMS.splunk(), port: '123456' },
      { ...FORMS.splunk(), port: '80a' },
      { ...FORMS.webhook(), url: 'http://example.com/' },
      { ...FORMS.webhook(), url: 'not a url' },
      { siem_tool: 'azure_sentinel', workspace_id: '', key: 'x' },
      { siem_tool: 'qradar', url: 'https://example.com', log_source_identifier: 'x' },
      { ...FORMS.webhook(), token: '' },
      { ...FORMS.sentinelIngestion(), dcr_immutable_id: 'my-rule' },
      { ...FORMS.sentinelIngestion(), stream_name: 'LatchkeyEvents' },
      { ...FORMS.sentinelIngestion(), dce_endpoint: 'http://127.0.0.1' },
      { ...FORMS.sentinelIngestion(), tenant_id: '' },
      { ...FORMS.sentinelIngestion(), client_secret: '' },
    ]) {
      const res = await configure(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('loses nothing while the destination is down, and sends each event once it is back; backfill re-sends', async () => {
    const saved = await configure(FORMS.webhook());
    const id = (saved.body.data as SiemTool).id;
    await update(id, 'activate');
    r.webhook.down = true;
    const ids = await adminChanges(40);
    await until(async () => Boolean((await tools()).body.data?.health.last_error));
    expect(ids.some((x) => r.webhook.received.includes(x))).toBe(false);
    // What the LatchkeySiemDeliveryFailing alert reads.
    expect(await destinationStates()).toEqual({ delivering: '0', failing: '1' });
    r.webhook.down = false;
    // Skip the backoff wait: a test event (the health panel's button) clears it.
    await update(id, 'test');
    await until(() => ids.every((x) => r.webhook.received.includes(x)));
    const once = r.webhook.received.filter((x) => ids.includes(x));
    expect(new Set(once).size).toBe(40);
    expect(once).toHaveLength(40);
    const health = (await tools()).body.data?.health;
    expect(health?.last_error).toBeNull();
    expect(await destinationStates()).toEqual({ delivering: '1', failing: '0' });

    // A delivery run whose process died holds the lease until it expires; then delivery resumes.
    await db.query(`update siem_destinations set lease_until = now() + interval '1 second' where id = $1`, [id]);
    const later = await adminChanges(5);
    await until(() => later.every((x) => r.webhook.received.includes(x)));

    // Backfill from a date sends the events since then again (the receiver de-duplicates by id).
    const count = r.webhook.received.length;
    await update(id, 'backfill', { from_timestamp: Math.floor(Date.now() / 1000) - 3600 });
    await until(() => r.webhook.received.length >= count + 45);
    await update(id, 'deactivate');
    await update(id, 'delete');
  });

  it('stops sending while SIEM export is switched off for the team', async () => {
    const saved = await configure(FORMS.sumo());
    const id = (saved.body.data as SiemTool).id;
    await update(id, 'activate');
    await send(hub, '/audit/logs/configuration/', { team_slug: TEAM, action: 'disable' }, admin);
    const ids = await adminChanges(2);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(ids.some((x) => r.sumo.received.includes(x))).toBe(false);
    await send(hub, '/audit/logs/configuration/', { team_slug: TEAM, action: 'enable' }, admin);
    await until(() => ids.every((x) => r.sumo.received.includes(x)));
    await update(id, 'deactivate');
    await update(id, 'delete');
  });
});
