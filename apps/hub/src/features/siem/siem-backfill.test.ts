import type { SiemTool } from '@latchkey/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningHub } from '../../testing/hub-fixture.ts';
import { siemCalls, startSiemHub } from '../../testing/siem-hub.ts';
import {
  type Receiver,
  selfSignedCert,
  WEBHOOK_SIGNING_SECRET,
  WEBHOOK_TOKEN,
  webhookReceiver,
} from '../../testing/siem-receivers.ts';

/**
 * A backfill's `from_timestamp` (epoch seconds) is bounded: past 8.64e12 seconds no date exists,
 * and the Hub answered 500 to a value its contract accepted.
 */
let hub: RunningHub;
let admin: Record<string, string>;
let close: () => Promise<void>;
let receiver: Receiver;
let id: string;

const siem = siemCalls(() => ({ hub, admin }));

beforeAll(async () => {
  const tls = selfSignedCert();
  receiver = await webhookReceiver(tls);
  ({ hub, admin, close } = await startSiemHub({ SIEM_CA_FILE: tls.certFile }));
  const saved = await siem.configure({
    siem_tool: 'other',
    url: `${receiver.url}/ingest`,
    token: WEBHOOK_TOKEN,
    signing_secret: WEBHOOK_SIGNING_SECRET,
    allow_unverified_certificate: false,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  id = (saved.body.data as SiemTool).id;
});
afterAll(() => close?.());

const backfill = (from: unknown) => siem.update(id, 'backfill', { from_timestamp: from });

it.each([
  ['the first second no date holds', 8_640_000_000_001],
  ['a thousand times later', 8.64e15],
  ['the largest safe integer', Number.MAX_SAFE_INTEGER],
  ['a year past 9999', 253_402_300_800],
])('%s is the caller’s mistake (400 on from_timestamp), not a 500', async (_name, from) => {
  const res = await backfill(from);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe('invalid_input');
  expect(res.body.issues?.[0]?.path).toBe('from_timestamp');
});

it('the last second of 9999 and the epoch itself are backfills like any other', async () => {
  for (const from of [253_402_300_799, 0, Math.floor(Date.now() / 1000) - 3600]) {
    const res = await backfill(from);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.code).toBe('ok');
  }
});
