import type { SiemTool } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSigned, type RunningHub, TEAM } from '../../testing/hub-fixture.ts';
import { QRADAR_SOURCE, qradarHttpReceiver } from '../../testing/qradar-receivers.ts';
import { adminChangeEvents, pollUntil, siemCalls, startSiemHub } from '../../testing/siem-hub.ts';
import { type Receiver, selfSignedCert } from '../../testing/siem-listen.ts';
import { SENTINEL_APP, sentinelIngestionReceiver } from '../../testing/siem-receivers.ts';
import { SPLUNK_TOKEN, splunkReceiver } from '../../testing/splunk-hec-receiver.ts';

/**
 * A batch too large for one request (the vendors' 1 MB) goes in parts. When a later part fails, the
 * parts the destination took are behind the cursor: sent again they would come twice.
 */
const tls = selfSignedCert();
let hub: RunningHub;
let admin: Record<string, string>;
let close: () => Promise<void>;
let ingestion: Awaited<ReturnType<typeof sentinelIngestionReceiver>>;

beforeAll(async () => {
  ingestion = await sentinelIngestionReceiver(tls);
  ({ hub, admin, close } = await startSiemHub({
    SIEM_CA_FILE: tls.certFile,
    SIEM_PUMP_INTERVAL_MS: '100',
    SIEM_RETRY_BASE_MS: '50',
    SIEM_RETRY_MAX_MS: '200',
    SENTINEL_TOKEN_URL: ingestion.tokenUrl,
  }));
});
afterAll(() => close?.());

const { configure, update, tools } = siemCalls(() => ({ hub, admin }));
const until = (check: () => boolean | Promise<boolean>, ms = 20_000) => pollUntil(check, { ms });

const CASES: [string, () => Promise<Receiver>, (r: Receiver) => Record<string, unknown>][] = [
  [
    'Sentinel Logs Ingestion',
    async () => ingestion,
    (r) => ({ siem_tool: 'azure_sentinel', api: 'logs_ingestion', ...SENTINEL_APP, dce_endpoint: r.url }),
  ],
  [
    'Splunk HEC',
    () => splunkReceiver(tls),
    (r) => ({ siem_tool: 'splunk', url: 'https://127.0.0.1', port: String(r.port), path: '', token: SPLUNK_TOKEN }),
  ],
  [
    'QRadar HTTP Receiver',
    () => qradarHttpReceiver(tls),
    (r) => ({ siem_tool: 'qradar', transport: 'http_receiver', url: `${r.url}/`, log_source_identifier: QRADAR_SOURCE }),
  ],
];

describe('a batch sent in parts', () => {
  for (const [name, receiver, form] of CASES) {
    it(`${name}: a later part refused, the parts taken before it are not sent again`, async () => {
      const r = await receiver();
      const saved = await configure(form(r));
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const id = (saved.body.data as SiemTool).id;
      // About 1.6 KB an event: 900 of them are more than one request holds.
      const events = adminChangeEvents(900).map((e, i) => ({
        ...e,
        detail: Object.fromEntries(['a', 'b', 'c', 'd'].map((k) => [k, `${k}${i}`.padEnd(400, 'x')])),
      }));
      for (let i = 0; i < events.length; i += 450)
        expect(
          (await postSigned(hub, '/api/v1/integrate/events/', { team_slug: TEAM, events: events.slice(i, i + 450) })).status,
        ).toBe(200);
      // The first part taken, every later one refused until the Hub reports the failure.
      r.onConfirmed = () => {
        r.onConfirmed = undefined;
        void r.setFault('unavailable');
      };
      await update(id, 'activate');
      await until(async () => Boolean((await tools()).body.data?.health.last_error));
      const partly = (await tools()).body.data?.health;
      expect(partly?.delivered_count).toBeGreaterThan(0);
      expect(partly?.lag).toBeGreaterThan(0);
      await r.setFault(null);
      await until(async () => (await tools()).body.data?.health.lag === 0);
      const ids: string[] = events.map((e) => e.id);
      const got = r.received.filter((x) => ids.includes(x));
      expect(new Set(got).size).toBe(ids.length);
      expect(got.length, 'no event sent twice').toBe(ids.length);
      await update(id, 'deactivate');
      await update(id, 'delete');
    });
  }
});
