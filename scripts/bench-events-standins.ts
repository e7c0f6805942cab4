// The SIEM stand-ins of the delivery bench (scripts/bench-events-delivery.ts), on a thread of their
// own: what the vendors' side costs (TLS, decompression, the strict checks) is not taken from the
// Hub being measured, as a real SIEM runs on other machines. Tells the parent each destination's
// address, then every confirmation as it is made (ids and when, epoch ms), a batch every 20 ms.
import { parentPort, workerData } from 'node:worker_threads';
import { qradarHttpReceiver, qradarSyslogReceiver } from '../apps/hub/src/testing/qradar-receivers.ts';
import type { Receiver, Tls } from '../apps/hub/src/testing/siem-listen.ts';
import { sentinelIngestionReceiver, sentinelReceiver, sumoReceiver } from '../apps/hub/src/testing/siem-receivers.ts';
import { splunkReceiver } from '../apps/hub/src/testing/splunk-hec-receiver.ts';
import { webhookReceiver } from '../apps/hub/src/testing/webhook-receiver.ts';

export const STAND_INS = [
  'splunk-ack',
  'splunk',
  'sentinel-ingestion',
  'sentinel-legacy',
  'qradar-http',
  'qradar-tls',
  'qradar-tcp',
  'sumo',
  'webhook',
] as const;
export type StandIn = (typeof STAND_INS)[number];
export type StandInAddress = { name: StandIn; url: string; port: number; tokenUrl?: string };
export type StandInMessage =
  | { kind: 'ready'; addresses: StandInAddress[] }
  | { kind: 'confirmed'; name: StandIn; ids: string[]; at: number }
  | { kind: 'refused'; name: StandIn; count: number };

if (parentPort) {
  const tls = workerData as Tls;
  const made: Record<StandIn, () => Promise<Receiver & { tokenUrl?: string }>> = {
    'splunk-ack': () => splunkReceiver(tls, { ack: true }),
    splunk: () => splunkReceiver(tls),
    'sentinel-ingestion': () => sentinelIngestionReceiver(tls),
    'sentinel-legacy': () => sentinelReceiver(tls),
    'qradar-http': () => qradarHttpReceiver(tls),
    'qradar-tls': () => qradarSyslogReceiver(tls),
    'qradar-tcp': () => qradarSyslogReceiver(null),
    sumo: () => sumoReceiver(tls),
    webhook: () => webhookReceiver(tls),
  };
  const port = parentPort;
  const pending = new Map<StandIn, string[]>();
  const addresses: StandInAddress[] = [];
  const receivers: [StandIn, Receiver][] = [];
  const told = new Map<StandIn, number>();
  for (const name of STAND_INS) {
    const r = await made[name]();
    r.onConfirmed = (ids) => pending.set(name, [...(pending.get(name) ?? []), ...ids]);
    receivers.push([name, r]);
    addresses.push({ name, url: r.url, port: r.port, ...(r.tokenUrl ? { tokenUrl: r.tokenUrl } : {}) });
  }
  setInterval(() => {
    const at = Date.now();
    for (const [name, ids] of pending) port.postMessage({ kind: 'confirmed', name, ids, at } satisfies StandInMessage);
    pending.clear();
    for (const [name, r] of receivers)
      if (r.rejected.length !== (told.get(name) ?? 0)) {
        told.set(name, r.rejected.length);
        port.postMessage({ kind: 'refused', name, count: r.rejected.length } satisfies StandInMessage);
      }
  }, 20);
  port.postMessage({ kind: 'ready', addresses } satisfies StandInMessage);
}
