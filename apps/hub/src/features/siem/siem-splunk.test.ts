import { randomUUID } from 'node:crypto';
import { request } from 'node:https';
import type { SiemTool } from '@latchkey/contracts';
import type { Db } from '@latchkey/runtime';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, TEAM } from '../../testing/hub-fixture.ts';
import { pollUntil, siemCalls, splunkForm, startSiemHub } from '../../testing/siem-hub.ts';
import { selfSignedCert, type Tls } from '../../testing/siem-listen.ts';
import { type HecReceiver, SPLUNK_TOKEN, splunkReceiver } from '../../testing/splunk-hec-receiver.ts';

/**
 * Splunk HEC: the stand-in answers as Splunk documents (status codes table, channel, indexer
 * acknowledgement), and the Hub saves and delivers to it with and without acknowledgement.
 */
let tls: Tls & { certFile: string };
let acked: HecReceiver;
let plain: HecReceiver;
let db: Db;
let hub: RunningHub;
let admin: Record<string, string>;
let close: () => Promise<void>;

beforeAll(async () => {
  tls = selfSignedCert();
  acked = await splunkReceiver(tls, { ack: true, indexes: ['main'] });
  plain = await splunkReceiver(tls, { ack: false });
  ({ db, hub, admin, close } = await startSiemHub({ SIEM_CA_FILE: tls.certFile, SIEM_PUMP_INTERVAL_MS: '100' }));
});
afterAll(() => close?.());

/** A call to the stand-in as any HEC client makes it. */
function hec(r: HecReceiver, path: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const req = request(`${r.url}${path}`, { method: 'POST', headers, ca: tls.cert }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const auth = { authorization: `Splunk ${SPLUNK_TOKEN}` };
const event = JSON.stringify({ time: 1700000000, host: 'h', source: 's', sourcetype: 't', event: { id: randomUUID() } });

describe('the HEC stand-in answers as Splunk documents', () => {
  it('a channel must be a GUID (code 11); with acknowledgement it is required (code 10)', async () => {
    for (const r of [acked, plain]) {
      const slug = await hec(r, '/services/collector/event', { ...auth, 'x-splunk-request-channel': TEAM }, event);
      expect(slug).toEqual({ status: 400, body: { text: 'Invalid data channel', code: 11 } });
      const query = await hec(r, '/services/collector/event?channel=not-a-guid', auth, event);
      expect(query.body).toMatchObject({ code: 11 });
    }
    expect((await hec(acked, '/services/collector/event', auth, event)).body).toEqual({
      text: 'Data channel is missing',
      code: 10,
    });
    expect((await hec(plain, '/services/collector/event', auth, event)).body).toEqual({ text: 'Success', code: 0 });
  });

  it('authorization: none is code 2, another scheme code 3, an unknown token code 4', async () => {
    const ch = { 'x-splunk-request-channel': randomUUID() };
    expect(await hec(plain, '/services/collector/event', ch, event)).toEqual({
      status: 401,
      body: { text: 'Token is required', code: 2 },
    });
    expect(await hec(plain, '/services/collector/event', { ...ch, authorization: `Bearer ${SPLUNK_TOKEN}` }, event)).toEqual({
      status: 401,
      body: { text: 'Invalid authorization', code: 3 },
    });
    expect(await hec(plain, '/services/collector/event', { ...ch, authorization: 'Splunk nope' }, event)).toEqual({
      status: 403,
      body: { text: 'Invalid token', code: 4 },
    });
  });

  it('events: no data (5), not JSON objects (6), no event field (12), a blank event (13), an index not allowed (7), too large (413)', async () => {
    const h = { ...auth, 'x-splunk-request-channel': randomUUID() };
    const at = (body: string) => hec(acked, '/services/collector/event', h, body);
    expect((await at('')).body).toMatchObject({ text: 'No data', code: 5 });
    expect((await at('[{"event": "x"}]')).body).toMatchObject({ text: 'Invalid data format', code: 6 });
    expect((await at(`${event}{"time": 1700000000}`)).body).toEqual({
      text: 'Event field is required',
      code: 12,
      'invalid-event-number': 1,
    });
    expect((await at('{"event": ""}')).body).toMatchObject({ text: 'Event field cannot be blank', code: 13 });
    expect((await at('{"event": "x", "index": "security"}')).body).toMatchObject({ text: 'Incorrect index', code: 7 });
    expect((await at('{"event": "x", "index": "main"}')).status).toBe(200);
    expect((await at(`{"event": "${'x'.repeat(1_000_001)}"}`)).status).toBe(413);
  });

  it('busy is 503 code 9; acknowledgement: ackIds per channel from 0, true once indexed (second poll), then forgotten; code 14 without it', async () => {
    const h = { ...auth, 'x-splunk-request-channel': randomUUID() };
    acked.busy = true;
    expect(await hec(acked, '/services/collector/event', h, event)).toEqual({
      status: 503,
      body: { text: 'Server is busy', code: 9 },
    });
    acked.busy = false;
    expect((await hec(acked, '/services/collector/event', h, event)).body).toEqual({ text: 'Success', code: 0, ackId: 0 });
    expect((await hec(acked, '/services/collector/event', h, `${event}\n${event}`)).body).toMatchObject({ ackId: 1 });
    const poll = () => hec(acked, '/services/collector/ack', h, JSON.stringify({ acks: [0, 1, 7] }));
    expect((await poll()).body).toEqual({ acks: { 0: false, 1: false, 7: false } });
    expect((await poll()).body).toEqual({ acks: { 0: true, 1: true, 7: false } });
    expect((await poll()).body).toEqual({ acks: { 0: false, 1: false, 7: false } });
    expect((await hec(acked, '/services/collector/ack', h, 'nope')).body).toMatchObject({ code: 6 });
    const off = await hec(
      plain,
      '/services/collector/ack',
      { ...auth, 'x-splunk-request-channel': randomUUID() },
      '{"acks":[0]}',
    );
    expect(off).toEqual({ status: 400, body: { text: 'ACK is disabled', code: 14 } });
  });
});

const siem = siemCalls(() => ({ hub, admin }));
const { update, tools, adminChanges } = siem;
const configure = (r: HecReceiver, extra: Record<string, unknown> = {}) => siem.configure({ ...splunkForm(r), ...extra });
const channelOf = async (id: string) =>
  (await db.query<{ request_channel: string }>('select request_channel from siem_destinations where id = $1', [id]))[0]
    ?.request_channel;

const until = (check: () => boolean | Promise<boolean>, ms = 15_000) => pollUntil(check, { ms, stepMs: 50 });

async function remove(id: string) {
  await update(id, 'deactivate');
  expect((await update(id, 'delete')).body.code).toBe('deleted');
}

describe('the Hub and Splunk HEC', () => {
  afterEach(async () => {
    const left = (await tools()).body.data;
    if (left) await remove(left.id);
  });

  it('with acknowledgement: saves (its own GUID channel, made before the test event), and moves the cursor only once Splunk reports the batch indexed', async () => {
    const before = acked.channels.size;
    const refusedBefore = acked.rejected.length;
    const saved = await configure(acked);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const tool = saved.body.data as SiemTool;
    const channel = await channelOf(tool.id);
    expect(channel).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(channel).not.toBe(tool.id);
    // The test event came on the channel kept with the destination.
    expect(acked.channels.size).toBe(before + 1);
    expect(acked.channels.has(channel as string)).toBe(true);

    // Events waiting when the destination is activated: one batch, taken by Splunk but not yet indexed.
    const ids = await adminChanges(5);
    acked.indexing = false;
    const polls = acked.ackPolls;
    await update(tool.id, 'activate');
    await until(() => ids.every((id) => acked.received.includes(id)));
    await until(() => acked.ackPolls >= polls + 3);
    const waiting = (await tools()).body.data;
    expect(waiting?.health.lag).toBeGreaterThanOrEqual(5);
    expect(waiting?.health.delivered_count).toBe(0);
    acked.indexing = true;
    await until(async () => (await tools()).body.data?.health.lag === 0);
    // siem.configured, the five changes, siem.activated.
    expect((await tools()).body.data?.health.delivered_count).toBe(7);
    expect(acked.channels.size).toBe(before + 1);
    expect(acked.rejected.slice(refusedBefore)).toEqual([]);

    // A new destination gets a channel of its own.
    await remove(tool.id);
    const again = (await configure(acked)).body.data as SiemTool;
    expect(await channelOf(again.id)).not.toBe(channel);
    await update(again.id, 'delete');
  });

  it('a test event Splunk has taken but not yet indexed saves the destination as pending (spec §4), then tested once indexed', async () => {
    acked.indexing = false;
    let tool: SiemTool;
    try {
      const saved = await configure(acked);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      tool = saved.body.data as SiemTool;
      expect(tool.status).toBe('pending');
      expect((await tools()).body.data?.status).toBe('pending');
    } finally {
      acked.indexing = true;
    }
    await until(async () => (await tools()).body.data?.status === 'tested');
    // The admin's own test goes the same way.
    acked.indexing = false;
    try {
      expect((await update(tool.id, 'test')).body.data).toMatchObject({ status: 'pending' });
    } finally {
      acked.indexing = true;
    }
    await until(async () => (await tools()).body.data?.status === 'tested');
  });

  it('without acknowledgement: saves and delivers; busy (code 9) is retried, in Splunk words on the health panel', async () => {
    const saved = await configure(plain);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const tool = saved.body.data as SiemTool;
    await update(tool.id, 'activate');
    plain.busy = true;
    const ids = await adminChanges(4);
    await until(async () => Boolean((await tools()).body.data?.health.last_error));
    expect((await tools()).body.data?.health.last_error).toBe('Splunk HEC refused the batch: Server is busy (code 9).');
    plain.busy = false;
    await update(tool.id, 'test');
    await until(() => ids.every((id) => plain.received.includes(id)));
    await until(async () => (await tools()).body.data?.health.lag === 0);
    expect(new Set(plain.received.filter((id) => ids.includes(id))).size).toBe(4);
    await remove(tool.id);
  });

  it('a refusal at save is url_not_accessible with Splunk’s reason', async () => {
    const wrong = await configure(acked, { token: 'not-the-token' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('url_not_accessible');
    expect(wrong.body.description).toContain('Invalid token (code 4)');
    expect((await tools()).body.code).toBe('not_found');
  });
});
