// The event-log bench's SIEM delivery (scripts/bench-events.ts), per destination: the stand-ins the
// tests use (apps/hub/src/testing, each as strict as its vendor's document) on this machine's
// loopback, on a thread of their own (bench-events-standins.ts), one team and destination each:
//   - live: events arrive at 5,000 a second for BENCH_DELIVERY_SECONDS (10) through the service
//     function; each event's lag is from its append to the moment the stand-in confirmed it to the
//     Hub (Splunk with acknowledgement: reported indexed; syslog: the connection closed cleanly);
//   - backlog: a backfill of everything the team holds, as fast as delivery goes (events/s).
// Targets: lag p99 ≤ 5 s; ≥ 10,000 events/s to an HTTP destination, ≥ 5,000/s to syslog.
import { Worker } from 'node:worker_threads';
import type { Db } from '@latchkey/runtime';
import type { createEventsService } from '../apps/hub/src/features/eventlogs/eventlogs.service.ts';
import { QRADAR_SOURCE } from '../apps/hub/src/testing/qradar-receivers.ts';
import type { Tls } from '../apps/hub/src/testing/siem-listen.ts';
import { SENTINEL_APP, SENTINEL_KEY, SENTINEL_WORKSPACE, SUMO_TOKEN } from '../apps/hub/src/testing/siem-receivers.ts';
import { SPLUNK_TOKEN } from '../apps/hub/src/testing/splunk-hec-receiver.ts';
import { WEBHOOK_SIGNING_SECRET, WEBHOOK_TOKEN } from '../apps/hub/src/testing/webhook-receiver.ts';
import { makeEvents } from './bench-events-ingest.ts';
import type { StandIn, StandInAddress, StandInMessage } from './bench-events-standins.ts';

const RATE = 5_000;
const LIVE_SECONDS = Number(process.env.BENCH_DELIVERY_SECONDS ?? 10);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

interface Destination {
  name: string;
  standIn: StandIn;
  syslog: boolean;
  form: Record<string, unknown>;
}

/** The stand-ins' thread, and what it told: per stand-in, when each id was first confirmed and how many confirmations. */
export async function deliveryDestinations(tls: Tls) {
  const worker = new Worker(new URL('./bench-events-standins.ts', import.meta.url), { workerData: tls });
  const confirmed = new Map<StandIn, { at: Map<string, number>; count: number; last: number; refused: number }>();
  const of = (name: StandIn) => {
    let c = confirmed.get(name);
    if (!c) {
      c = { at: new Map(), count: 0, last: 0, refused: 0 };
      confirmed.set(name, c);
    }
    return c;
  };
  const addresses = await new Promise<StandInAddress[]>((resolve, reject) => {
    worker.on('message', (m: StandInMessage) => {
      if (m.kind === 'ready') resolve(m.addresses);
      else if (m.kind === 'refused') of(m.name).refused = m.count;
      else {
        const c = of(m.name);
        c.count += m.ids.length;
        c.last = m.at;
        for (const id of m.ids) if (!c.at.has(id)) c.at.set(id, m.at);
      }
    });
    worker.once('error', reject);
  });
  const a = Object.fromEntries(addresses.map((x) => [x.name, x])) as Record<StandIn, StandInAddress>;
  const hec = (name: StandIn) => ({
    siem_tool: 'splunk',
    url: 'https://127.0.0.1',
    port: String(a[name].port),
    path: '',
    token: SPLUNK_TOKEN,
  });
  const qradar = (transport: string, url: string) => ({
    siem_tool: 'qradar',
    transport,
    url,
    log_source_identifier: QRADAR_SOURCE,
  });
  const destinations: Destination[] = [
    { name: 'Splunk HEC, indexer acknowledgement', standIn: 'splunk-ack', syslog: false, form: hec('splunk-ack') },
    { name: 'Splunk HEC', standIn: 'splunk', syslog: false, form: hec('splunk') },
    {
      name: 'Sentinel, Logs Ingestion API',
      standIn: 'sentinel-ingestion',
      syslog: false,
      form: { siem_tool: 'azure_sentinel', api: 'logs_ingestion', ...SENTINEL_APP, dce_endpoint: a['sentinel-ingestion'].url },
    },
    {
      name: 'Sentinel, Data Collector API',
      standIn: 'sentinel-legacy',
      syslog: false,
      form: { siem_tool: 'azure_sentinel', api: 'data_collector', workspace_id: SENTINEL_WORKSPACE, key: SENTINEL_KEY },
    },
    {
      name: 'QRadar, HTTP Receiver',
      standIn: 'qradar-http',
      syslog: false,
      form: qradar('http_receiver', `${a['qradar-http'].url}/`),
    },
    { name: 'QRadar, syslog TLS', standIn: 'qradar-tls', syslog: true, form: qradar('syslog', a['qradar-tls'].url) },
    { name: 'QRadar, syslog TCP', standIn: 'qradar-tcp', syslog: true, form: qradar('syslog', a['qradar-tcp'].url) },
    {
      name: 'Sumo Logic',
      standIn: 'sumo',
      syslog: false,
      form: { siem_tool: 'sumo_logic', url: `${a.sumo.url}/receiver/v1/http/${SUMO_TOKEN}` },
    },
    {
      name: 'Webhook',
      standIn: 'webhook',
      syslog: false,
      form: { siem_tool: 'other', url: `${a.webhook.url}/ingest`, token: WEBHOOK_TOKEN, signing_secret: WEBHOOK_SIGNING_SECRET },
    },
  ];
  return {
    destinations,
    confirmed: of,
    close: () => worker.terminate(),
    env: {
      SENTINEL_DATA_COLLECTOR_URL: `${a['sentinel-legacy'].url}/{workspace_id}/api/logs?api-version=2016-04-01`,
      SENTINEL_TOKEN_URL: a['sentinel-ingestion'].tokenUrl ?? '',
    },
  };
}

/** A team per destination: `bench-siem-0`, `bench-siem-1` … */
export const deliveryTeams = (n: number) => Array.from({ length: n }, (_, i) => `bench-siem-${i}`);

type Call = (team: string, path: string, body: Record<string, unknown>) => Promise<{ data: { id: string } }>;
type Confirmed = Awaited<ReturnType<typeof deliveryDestinations>>['confirmed'];

const waitFor = async (done: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
  return done();
};

export async function deliveryPhase(
  db: Db,
  service: ReturnType<typeof createEventsService>,
  call: Call,
  destinations: Destination[],
  confirmed: Confirmed,
  checks: [string, boolean][],
) {
  const teams = deliveryTeams(destinations.length);
  console.info(
    `\nSIEM delivery per destination (stand-ins on their own thread): live at ${fmt(RATE)} events/s for ${LIVE_SECONDS} s, lag from append to confirmed; then a backfill of all`,
  );
  for (const [i, d] of destinations.entries()) {
    const team = teams[i] as string;
    const seen = confirmed(d.standIn);
    const configured = await call(team, '/siem/tools/configure/', { allow_unverified_certificate: false, ...d.form });
    const id = configured.data.id;
    await call(team, '/siem/tool/update/', { id, action: 'activate' });
    // Live: RATE events a second, in twentieths of a second.
    const appended = new Map<string, number>();
    const started = performance.now();
    for (let s = 0; s < LIVE_SECONDS * 20; s++) {
      const wait = started + s * 50 - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const events = makeEvents(RATE / 20, s * (RATE / 20));
      await service.ingestFromServer(team, events);
      const now = Date.now();
      for (const e of events) appended.set(e.id, now);
    }
    const arrivedRate = appended.size / ((performance.now() - started) / 1000);
    const ids = [...appended.keys()];
    if (!(await waitFor(() => ids.every((x) => seen.at.has(x)), 120_000)))
      throw new Error(`${d.name}: events not confirmed after 120 s (${seen.refused} refused)`);
    const lags = ids.map((x) => (seen.at.get(x) as number) - (appended.get(x) as number)).sort((a, b) => a - b);
    // Backlog: everything the team holds again, as fast as delivery goes.
    const [{ n }] = (await db.query<{ n: string }>('select count(*)::text as n from event_log where team_slug = $1', [team])) as [
      { n: string },
    ];
    const before = seen.count;
    const backfillStarted = Date.now();
    await call(team, '/siem/tool/update/', { id, action: 'backfill', from_timestamp: 0 });
    await waitFor(() => seen.count - before >= Number(n), 300_000);
    const backfillRate = (seen.count - before) / ((seen.last - backfillStarted) / 1000);
    await call(team, '/siem/tool/update/', { id, action: 'deactivate' });
    const target = d.syslog ? 5_000 : 10_000;
    console.info(
      `${d.name.padEnd(38)} ${fmt(arrivedRate)}/s arrived: lag p50 ${fmt(pct(lags, 0.5))} ms  p99 ${fmt(pct(lags, 0.99))} ms  max ${fmt(lags.at(-1) ?? 0)} ms; ` +
        `backfill of ${fmt(Number(n))}: ${fmt(backfillRate)} events/s; ${seen.refused} refused`,
    );
    checks.push([
      `${d.name}: lag p99 ${(pct(lags, 0.99) / 1000).toFixed(2)} s ≤ 5 s at ${fmt(RATE)} events/s`,
      pct(lags, 0.99) <= 5_000,
    ]);
    checks.push([
      `${d.name}: delivery ${fmt(backfillRate)} events/s ≥ ${fmt(target)}`,
      backfillRate >= target && seen.refused === 0,
    ]);
  }
}
