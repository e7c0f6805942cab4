import { randomUUID } from 'node:crypto';
import type { SiemTool } from '@latchkey/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postSigned, type RunningHub, TEAM } from '../../testing/hub-fixture.ts';
import { LeefError, parseLeef } from '../../testing/leef-parser.ts';
import {
  MAX_PAYLOAD,
  QRADAR_SOURCE,
  type QradarReceiver,
  qradarHttpReceiver,
  qradarSyslogReceiver,
} from '../../testing/qradar-receivers.ts';
import { adminChangeEvents, pollUntil, siemCalls, startSiemHub } from '../../testing/siem-hub.ts';
import { selfSignedCert } from '../../testing/siem-listen.ts';
import { leefLine } from './leef.ts';
import type { SiemEvent } from './senders.ts';

/**
 * IBM QRadar: every line the Hub writes read back by a strict LEEF 2.0 reader; the HTTP Receiver,
 * TLS Syslog and TCP Syslog log sources; and syslog, which has no acknowledgement, losing nothing
 * when the collector drops the connection, or when it does not and the batch is long.
 */
let hub: RunningHub;
let admin: Record<string, string>;
let close: () => Promise<void>;
const at = {} as Record<'http' | 'tls' | 'tcp', QradarReceiver>;

beforeAll(async () => {
  const tls = selfSignedCert();
  at.http = await qradarHttpReceiver(tls);
  at.tls = await qradarSyslogReceiver(tls);
  at.tcp = await qradarSyslogReceiver(null);
  ({ hub, admin, close } = await startSiemHub({ SIEM_CA_FILE: tls.certFile, SIEM_PUMP_INTERVAL_MS: '100' }));
});
afterAll(() => close?.());

const event = (o: Partial<SiemEvent> = {}): SiemEvent => ({
  team_slug: TEAM,
  id: randomUUID(),
  seq: 42,
  actor: 'member@northwind.example',
  actor_type: 'member',
  activity: 'app.unlock_failed',
  component: 'apps',
  target: '',
  ip: '',
  device: '',
  occurred_at: '2026-11-28T10:11:12.345Z',
  recorded_at: '2026-11-28T10:11:13.000Z',
  outcome: 'failure',
  detail: {},
  prev_hash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
  ...o,
});

describe('LEEF 2.0 as IBM defines it', () => {
  it('every line the sender writes parses: header, tab delimiter, no key without a value, typed predefined keys, devTime by devTimeFormat', () => {
    const cases = [
      event(),
      event({ ip: '203.0.113.7', device: 'Chrome 131 on macOS', target: 'Vault 7' }),
      event({ ip: '2001:db8::1' }),
      event({ ip: 'not an address', actor: 'x'.repeat(300) }),
      event({ target: 'tab\there, caret ^ pipe | equals = and\na line break', detail: { note: 'a\tb^c|d' } }),
      event({
        detail: {
          big: 'é'.repeat(300),
          more: 'z'.repeat(500),
          ...Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, 'v'.repeat(400)])),
        },
      }),
    ];
    for (const e of cases) {
      const line = leefLine(e, QRADAR_SOURCE);
      const leef = parseLeef(line);
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_PAYLOAD);
      expect(leef).toMatchObject({ vendor: 'Latchkey', product: 'Hub', eventId: e.activity, delimiter: '\t' });
      expect(leef.syslog).toMatchObject({ hostname: QRADAR_SOURCE, timestamp: e.recorded_at, pri: 110 });
      expect(leef.attributes).toMatchObject({ eventId: e.id, devTime: e.occurred_at, cat: e.component, outcome: e.outcome });
      expect(Object.values(leef.attributes).every((v) => v !== '')).toBe(true);
      expect(leef.attributes.src).toBe(e.ip === '203.0.113.7' || e.ip === '2001:db8::1' ? e.ip : undefined);
      expect(leef.attributes.usrName?.length).toBeLessThanOrEqual(255);
    }
    expect(parseLeef(leefLine(cases[4] as SiemEvent, QRADAR_SOURCE)).attributes.resource).toBe(
      'tab here, caret ^ pipe | equals = and a line break',
    );
    expect(parseLeef(leefLine(cases[5] as SiemEvent, QRADAR_SOURCE)).attributes.detail).toMatch(/\.\.\.$/);
  });

  it('the reader refuses what LEEF does not allow', () => {
    const head = `<110>1 2026-11-28T10:11:13.000Z ${QRADAR_SOURCE} latchkey - x -`;
    const bad = [
      // An empty src: what the sender wrote for every event without an IP.
      `${head} LEEF:2.0|Latchkey|Hub|1.0|x|^|devTime=2026-11-28T10:11:12.345Z^devTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSSX^src=^eventId=1`,
      // A delimiter inside a value, "escaped" with a backslash LEEF does not define.
      `${head} LEEF:2.0|Latchkey|Hub|1.0|x|^|detail={"a":"b\\^c"}^eventId=1`,
      `${head} LEEF:2.0|Latchkey|Hub|1.0|x|^|src=not-an-ip`,
      `${head} LEEF:2.0|Latchkey|Hub|1.0|x|^|devTime=28/11/2026^devTimeFormat=yyyy-MM-dd`,
      `${head} LEEF:2.0|Latchkey|Hub|1.0|x|^|devTime=2026-11-28`,
      `${head} LEEF:2.0|Latchkey|Hub|1.0|x|x5E5E5|a=b`,
      `${head} LEEF:2.0|Latchkey|Hub|x|^|a=b`,
      `${head} LEEF:2.0|Latchkey|Hub|1.0|x|^|a=b^a=c`,
      `${head} LEEF:1.0|Latchkey|Hub|1.0|x|a=b`,
      `<110>1 2026-11-28 10:11:13 host app - x - LEEF:2.0|Latchkey|Hub|1.0|x|^|a=b`,
      `<110>1 2026-11-28T10:11:13.000Z host app - ${'m'.repeat(33)} - LEEF:2.0|Latchkey|Hub|1.0|x|^|a=b`,
    ];
    for (const line of bad) expect(() => parseLeef(line), line).toThrow(LeefError);
    expect(parseLeef(`${head} LEEF:2.0|Latchkey|Hub|1.0|x|x5E|a=b^c=d`).attributes).toEqual({ a: 'b', c: 'd' });
  });
});

const FORMS = {
  http: () => ({ transport: 'http_receiver', url: `${at.http.url}/` }),
  tls: () => ({ transport: 'syslog', url: at.tls.url }),
  tcp: () => ({ transport: 'syslog', url: at.tcp.url }),
};
const siem = siemCalls(() => ({ hub, admin }));
const { update, tools } = siem;
const configure = (form: Record<string, unknown>) =>
  siem.configure({
    siem_tool: 'qradar',
    log_source_identifier: QRADAR_SOURCE,
    allow_unverified_certificate: false,
    ...form,
  });

/** Events as the apps and the licence server send them: most without an IP address. */
async function events(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let from = 0; from < n; from += 500) {
    const batch = adminChangeEvents(Math.min(500, n - from), from).map((e, i) => ({
      ...e,
      ...((from + i) % 7 === 0 ? { ip: '198.51.100.23' } : {}),
    }));
    expect((await postSigned(hub, '/api/v1/integrate/events/', { team_slug: TEAM, events: batch })).status).toBe(200);
    ids.push(...batch.map((e) => e.id));
  }
  return ids;
}

const until = (check: () => boolean | Promise<boolean>, what: string, ms = 30_000) => pollUntil(check, { ms, stepMs: 50, what });

afterEach(async () => {
  for (const r of Object.values(at)) await r.setFault(null);
  await siem.removeDestination();
});

describe('the HTTP Receiver beside syslog over TLS and TCP', () => {
  it('the form: the transport decides the scheme (https for the HTTP Receiver), the log source identifier is a syslog host name', async () => {
    for (const bad of [
      { transport: 'http_receiver', url: at.tls.url },
      { transport: 'http_receiver', url: `http://127.0.0.1:${at.http.port}/` },
      { transport: 'syslog', url: `${at.http.url}/` },
      { transport: 'syslog', url: 'tls://127.0.0.1' },
      { ...FORMS.http(), log_source_identifier: 'latchkey hub' },
      { ...FORMS.http(), log_source_identifier: 'hub-é' },
    ]) {
      const res = await configure(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe('invalid_input');
    }
  });

  for (const way of ['http', 'tls', 'tcp'] as const) {
    it(`${way}: saves, and every event arrives as LEEF the strict reader takes (app events without an IP included)`, async () => {
      const r = at[way];
      const refused = r.rejected.length;
      const saved = await configure(FORMS[way]());
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const id = (saved.body.data as SiemTool).id;
      await update(id, 'activate');
      const ids = await events(60);
      await until(() => ids.every((x) => r.received.includes(x)), 'every event');
      expect(r.rejected.slice(refused)).toEqual([]);
      await until(async () => (await tools()).body.data?.health.lag === 0, 'lag 0');
      const withoutIp = r.lines.filter((l) => ids.some((x) => l.includes(`eventId=${x}`)) && !l.includes('\tsrc='));
      expect(withoutIp.length).toBeGreaterThan(40);
    });
  }
});

describe('syslog has no acknowledgement: a batch counts only once the connection closed cleanly', () => {
  it('TLS, no fault: every one of 2,100 events arrives, none twice', async () => {
    const saved = await configure(FORMS.tls());
    const id = (saved.body.data as SiemTool).id;
    await update(id, 'activate');
    const before = at.tls.received.length;
    const ids = await events(2_100);
    await until(async () => (await tools()).body.data?.health.lag === 0, 'lag 0', 60_000);
    const got = at.tls.received.slice(before);
    expect(ids.filter((x) => !got.includes(x))).toEqual([]);
    expect(got.length).toBe(new Set(got).size);
    expect(at.tls.rejected).toEqual([]);
  }, 90_000);

  for (const way of ['tls', 'tcp'] as const) {
    it(`${way}: the collector takes some events and drops the connection: the error shows, the cursor stays, the batch comes again; nothing lost`, async () => {
      const r = at[way];
      const saved = await configure(FORMS[way]());
      const id = (saved.body.data as SiemTool).id;
      await update(id, 'activate');
      await until(async () => (await tools()).body.data?.health.lag === 0, 'lag 0');
      await r.setFault('drop');
      const before = r.received.length;
      const ids = await events(700);
      await until(async () => Boolean((await tools()).body.data?.health.last_error), 'the error on the health panel');
      const during = (await tools()).body.data?.health;
      expect(during?.last_error).toMatch(/sent again/);
      expect(during?.lag).toBeGreaterThanOrEqual(700 - 25);
      await r.setFault(null);
      await update(id, 'test');
      await until(async () => (await tools()).body.data?.health.lag === 0, 'lag 0 again', 60_000);
      const got = r.received.slice(before);
      expect(ids.filter((x) => !got.includes(x))).toEqual([]);
      // Copies only of what the collector took without the sender knowing; never of a batch it confirmed.
      expect(r.confirmed.length).toBe(new Set(r.confirmed).size);
      expect(got.length).toBeGreaterThan(ids.length);
      expect((await tools()).body.data?.health.last_error).toBeNull();
    }, 90_000);
  }
});
