import { afterAll, beforeAll, expect, it } from 'vitest';
import { send } from '../../testing/clients.ts';
import { type RunningHub, TEAM } from '../../testing/hub-fixture.ts';
import { startSiemHub } from '../../testing/siem-hub.ts';
import { SPLUNK_TOKEN, WEBHOOK_SIGNING_SECRET, WEBHOOK_TOKEN } from '../../testing/siem-receivers.ts';

/**
 * A SIEM destination at the cloud's metadata service (169.254.169.254, a9fe:a9fe) wrapped in an
 * IPv6 address is refused by the outbound guard before the test event, outside production too:
 * SIIT's `::ffff:0:a.b.c.d` and ISATAP's interface id made the Hub connect.
 */
let hub: RunningHub;
let admin: Record<string, string>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ hub, admin, close } = await startSiemHub());
});
afterAll(() => close?.());

const WRAPPED = [
  '[::ffff:0:a9fe:a9fe]',
  '[::ffff:0:169.254.169.254]',
  '[2606:4700::5efe:a9fe:a9fe]',
  '[2606:4700::200:5efe:a9fe:a9fe]',
];

const FORMS: [string, (host: string) => Record<string, unknown>][] = [
  [
    'webhook',
    (host) => ({
      siem_tool: 'other',
      url: `https://${host}/ingest`,
      token: WEBHOOK_TOKEN,
      signing_secret: WEBHOOK_SIGNING_SECRET,
    }),
  ],
  ['Splunk', (host) => ({ siem_tool: 'splunk', url: `https://${host}`, port: '8088', path: '', token: SPLUNK_TOKEN })],
  ['QRadar syslog over TCP', (host) => ({ siem_tool: 'qradar', url: `tcp://${host}:514`, log_source_identifier: 'latchkey' })],
];

it.each(FORMS)('%s: each wrapping of the metadata address is refused as link-local, nothing saved', async (_vendor, form) => {
  for (const host of WRAPPED) {
    const res = await send<{ code: string; description: string }>(
      hub,
      '/siem/tools/configure/',
      { team_slug: TEAM, allow_unverified_certificate: false, ...form(host) },
      admin,
    );
    expect(res.status, `${host}: ${JSON.stringify(res.body)}`).toBe(400);
    expect(res.body.code).toBe('url_not_accessible');
    expect(res.body.description).toContain('link-local');
  }
  const tools = await send<{ data: unknown }>(hub, '/siem/tools/', { team_slug: TEAM }, admin);
  expect(tools.body.data).toBeNull();
});
