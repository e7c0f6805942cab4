import type { HubTokens, SiemTool } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../testing/clients.ts';
import { createHubDb, postSigned, type RunningHub, registerTeam, signGrant, startHub, TEAM } from '../../testing/hub-fixture.ts';
import { QRADAR_SOURCE, qradarHttpReceiver, qradarSyslogReceiver } from '../../testing/qradar-receivers.ts';
import { adminChangeEvents, pollUntil, splunkForm } from '../../testing/siem-hub.ts';
import { type Fault, type Receiver, selfSignedCert } from '../../testing/siem-listen.ts';
import {
  SENTINEL_APP,
  SENTINEL_KEY,
  SENTINEL_WORKSPACE,
  SUMO_TOKEN,
  sentinelIngestionReceiver,
  sentinelReceiver,
  sumoReceiver,
  WEBHOOK_SIGNING_SECRET,
  WEBHOOK_TOKEN,
  webhookReceiver,
} from '../../testing/siem-receivers.ts';
import { splunkReceiver } from '../../testing/splunk-hec-receiver.ts';

/**
 * One delivery law for every destination: while events stream in, the stand-in (as strict as the
 * vendor's document) goes through each fault it can meet; afterwards every event arrived, an event
 * comes twice only where the sender could not know it had been taken (never once confirmed), the
 * Hub's status showed the destination unhealthy during each fault and caught up within 5 s after.
 * Syslog has no answers, so 429 and 503 do not exist for it, nor a certificate over plain TCP.
 */
const HTTP_FAULTS: Fault[] = ['outage', 'too_many_requests', 'unavailable', 'slow', 'reset', 'drop', 'tls'];
const EVENTS = 2_100;
const CAUGHT_UP_MS = 5_000;

let db: Db;
let hub: RunningHub;
let serverUrl: string;
const tls = selfSignedCert();
let sentinelLegacy: Receiver;
let sentinelIngestion: Awaited<ReturnType<typeof sentinelIngestionReceiver>>;

beforeAll(async () => {
  sentinelLegacy = await sentinelReceiver(tls);
  sentinelIngestion = await sentinelIngestionReceiver(tls);
  db = await createHubDb();
  [{ server_url: serverUrl }] = (await db.query<{ server_url: string }>(
    'select server_url from registrations where team_slug = $1',
    [TEAM],
  )) as [{ server_url: string }];
  hub = await startHub(
    db,
    {
      SIEM_CA_FILE: tls.certFile,
      SIEM_PUMP_INTERVAL_MS: '100',
      // An answer slower than this is a failure; the stand-ins' slow answers take SLOW_MS (5 s).
      SIEM_TIMEOUT_MS: '2000',
      SIEM_RETRY_BASE_MS: '50',
      SIEM_RETRY_MAX_MS: '300',
      SENTINEL_DATA_COLLECTOR_URL: `${sentinelLegacy.url}/{workspace_id}/api/logs?api-version=2016-04-01`,
      SENTINEL_TOKEN_URL: sentinelIngestion.tokenUrl,
    },
    // Nine teams' status polled from one address: above the per-client request limit.
    100_000,
  );
}, 60_000);
afterAll(async () => {
  await hub.app.close();
  await db.close();
});

interface Destination {
  name: string;
  receiver: () => Promise<Receiver>;
  form: (r: Receiver) => Record<string, unknown>;
  faults: Fault[];
}

const qradarForm = (transport: string) => (r: Receiver) => ({
  siem_tool: 'qradar',
  transport,
  url: transport === 'http_receiver' ? `${r.url}/` : r.url,
  log_source_identifier: QRADAR_SOURCE,
  allow_unverified_certificate: false,
});

const DESTINATIONS: Destination[] = [
  { name: 'splunk-ack', receiver: () => splunkReceiver(tls, { ack: true }), form: splunkForm, faults: HTTP_FAULTS },
  { name: 'splunk', receiver: () => splunkReceiver(tls), form: splunkForm, faults: HTTP_FAULTS },
  {
    name: 'sentinel-data-collector',
    receiver: async () => sentinelLegacy,
    form: () => ({ siem_tool: 'azure_sentinel', api: 'data_collector', workspace_id: SENTINEL_WORKSPACE, key: SENTINEL_KEY }),
    faults: HTTP_FAULTS,
  },
  {
    name: 'sentinel-logs-ingestion',
    receiver: async () => sentinelIngestion,
    form: (r) => ({ siem_tool: 'azure_sentinel', api: 'logs_ingestion', ...SENTINEL_APP, dce_endpoint: r.url }),
    faults: HTTP_FAULTS,
  },
  {
    name: 'qradar-http-receiver',
    receiver: () => qradarHttpReceiver(tls),
    form: qradarForm('http_receiver'),
    faults: HTTP_FAULTS,
  },
  {
    name: 'qradar-syslog-tcp',
    receiver: () => qradarSyslogReceiver(null),
    form: qradarForm('syslog'),
    faults: ['outage', 'slow', 'reset', 'drop'],
  },
  {
    name: 'qradar-syslog-tls',
    receiver: () => qradarSyslogReceiver(tls),
    form: qradarForm('syslog'),
    faults: ['outage', 'slow', 'reset', 'drop', 'tls'],
  },
  {
    name: 'sumo-logic',
    receiver: () => sumoReceiver(tls),
    form: (r) => ({ siem_tool: 'sumo_logic', url: `${r.url}/receiver/v1/http/${SUMO_TOKEN}` }),
    faults: HTTP_FAULTS,
  },
  {
    name: 'webhook',
    receiver: () => webhookReceiver(tls),
    form: (r) => ({
      siem_tool: 'other',
      url: `${r.url}/ingest`,
      token: WEBHOOK_TOKEN,
      signing_secret: WEBHOOK_SIGNING_SECRET,
      allow_unverified_certificate: false,
    }),
    faults: HTTP_FAULTS,
  },
];

const until = (check: () => boolean | Promise<boolean>, what: string, ms = 20_000) => pollUntil(check, { ms, stepMs: 200, what });

/** A team of its own per destination (one destination per team), with a console session. */
async function teamFor(name: string) {
  const team = `law-${name}`;
  const kid = `cred-${team}`;
  await registerTeam(db, team, kid, serverUrl);
  const res = await hub.post(
    '/auth/token/',
    { team_slug: team, device: { browser: 'Chromium' } },
    { authorization: `Bearer ${await signGrant({ teamSlug: team, kid })}` },
  );
  expect(res.status).toBe(200);
  const admin = { authorization: `Bearer ${((await res.json()) as HubTokens).access}` };
  type Reply = { code: string; data: SiemTool | null };
  return {
    configure: (form: Record<string, unknown>) => send<Reply>(hub, '/siem/tools/configure/', { team_slug: team, ...form }, admin),
    update: (id: string, action: string) => send<Reply>(hub, '/siem/tool/update/', { team_slug: team, id, action }, admin),
    /** The destination's health, as the console's status call reads it. */
    health: async () => {
      const tool = (await send<Reply>(hub, '/siem/tools/', { team_slug: team }, admin)).body.data;
      if (!tool) throw new Error('no destination');
      return tool.health;
    },
    /** Events as the licence server's feed sends them, 500 a call at most. */
    events: async (n: number) => {
      const ids: string[] = [];
      for (let from = 0; from < n; from += 500) {
        const batch = adminChangeEvents(Math.min(500, n - from), from);
        const res = await postSigned(hub, '/api/v1/integrate/events/', { team_slug: team, events: batch }, { kid });
        expect(res.status).toBe(200);
        ids.push(...batch.map((e) => e.id));
      }
      return ids;
    },
  };
}

describe.concurrent('every destination, one delivery law', () => {
  for (const dest of DESTINATIONS) {
    it(`${dest.name}: ${EVENTS} events through ${dest.faults.join(', ')}: all arrive, copies only of what was never confirmed, unhealthy during each fault, caught up within 5 s`, async () => {
      const r = await dest.receiver();
      const t = await teamFor(dest.name);
      const saved = await t.configure(dest.form(r));
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const id = (saved.body.data as SiemTool).id;
      expect((await t.update(id, 'activate')).status).toBe(200);
      await until(async () => (await t.health()).lag === 0, `${dest.name} caught up after activation`);

      const ids: string[] = [];
      const caughtUp: Record<string, number> = {};
      const perFault = Math.ceil(EVENTS / dest.faults.length);
      for (const fault of dest.faults) {
        await r.setFault(fault);
        ids.push(...(await t.events(perFault)));
        await until(async () => (await t.health()).last_error !== null, `${dest.name} unhealthy during ${fault}`);
        if (fault === 'too_many_requests') {
          // Retry-After: 1 is honoured: two refusals in a row are at least a second apart.
          const from = r.throttled.length;
          await until(() => r.throttled.length >= from + 1, `${dest.name} tried again after its 429`);
          const [a, b] = r.throttled.slice(-2) as [number, number];
          expect(b - a, 'the wait Retry-After asked for').toBeGreaterThanOrEqual(950);
        }
        expect((await t.health()).lag, `${fault}: events wait while the destination fails`).toBeGreaterThan(0);
        await r.setFault(null);
        const cleared = Date.now();
        let last: string | null = null;
        await until(async () => {
          const h = await t.health();
          last = h.last_success_at;
          return h.lag === 0 && h.last_error === null;
        }, `${dest.name} caught up after ${fault}`);
        // When the Hub moved the cursor to the head, by its own clock (not when this test looked).
        caughtUp[fault] = Date.parse(last ?? '') - cleared;
      }

      const received = new Set(r.received);
      expect(
        ids.filter((x) => !received.has(x)),
        'events lost',
      ).toEqual([]);
      // Never confirmed twice: a copy is only ever of a batch the sender could not know was taken.
      const seen = new Set<string>();
      const twice = r.confirmed.filter((x) => ids.includes(x) && (seen.has(x) || !seen.add(x)));
      expect(twice, 'events confirmed to the sender and sent again').toEqual([]);
      expect(r.rejected, 'refused by the stand-in').toEqual([]);
      for (const [fault, ms] of Object.entries(caughtUp)) expect(ms, `caught up after ${fault}`).toBeLessThan(CAUGHT_UP_MS);
      const copies = r.received.filter((x) => ids.includes(x)).length - ids.length;
      console.info(
        `${dest.name}: ${ids.length} events, ${copies} copies of unconfirmed batches; caught up after ${Object.entries(caughtUp)
          .map(([f, ms]) => `${f} ${ms} ms`)
          .join(', ')}`,
      );
      await t.update(id, 'deactivate');
    }, 120_000);
  }
});
