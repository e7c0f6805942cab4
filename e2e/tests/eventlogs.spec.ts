import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import {
  QRADAR_SOURCE,
  qradarHttpReceiver,
  qradarReceiver,
  type Receiver,
  SENTINEL_APP,
  SENTINEL_KEY,
  SENTINEL_WORKSPACE,
  SPLUNK_TOKEN,
  sentinelIngestionReceiver,
  sentinelReceiver,
  splunkReceiver,
  sumoReceiver,
  WEBHOOK_TOKEN,
  webhookReceiver,
} from '../../apps/hub/src/testing/siem-receivers.ts';
import { HUB_URL } from '../support/env.ts';
import { ADMINS, atRoute, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { SENTINEL_INGESTION_PORT, SENTINEL_LEGACY_PORT, siemTls } from '../support/siem.ts';
import { expect, test } from '../support/test.ts';

test.describe.configure({ mode: 'serial' });

type Vendor = 'splunk' | 'other' | 'sumo_logic' | 'sentinel_ingestion' | 'sentinel_legacy' | 'qradar' | 'qradar_http';
const receivers = {} as Record<Vendor, Receiver>;
let webhookEndpoint: Awaited<ReturnType<typeof webhookReceiver>>;

test.beforeAll(async () => {
  // The certificate the suite's Hub trusts (SIEM_CA_FILE); Sentinel's receivers where the Hub looks for them.
  const tls = siemTls(process.env.LATCHKEY_E2E_DATA ?? '');
  receivers.splunk = await splunkReceiver(tls);
  webhookEndpoint = await webhookReceiver(tls);
  receivers.other = webhookEndpoint;
  receivers.sumo_logic = await sumoReceiver(tls);
  receivers.sentinel_ingestion = await sentinelIngestionReceiver(tls, SENTINEL_INGESTION_PORT);
  receivers.sentinel_legacy = await sentinelReceiver(tls, SENTINEL_LEGACY_PORT);
  receivers.qradar = await qradarReceiver(tls);
  receivers.qradar_http = await qradarHttpReceiver(tls);
});

/** Creates a group in the console, as an admin change whose event must reach the log and the SIEM. */
async function createGroup(page: Page, name: string) {
  await page.goto('/#/groups');
  await page.getByTestId('group-create-open').click();
  const create = page.getByTestId('group-create-dialog');
  await create.getByTestId('group-name').fill(name);
  await create.getByTestId('group-create-submit').click();
  await expect(page.getByText(`Group ${name} created.`)).toBeVisible();
}

/**
 * Back to "not configured", whatever an earlier try left (a retry starts where the failed try
 * stopped): an active destination is deactivated, then deleted.
 */
async function resetDestination(page: Page) {
  await page.goto('/#/settings/eventlogs');
  const card = page.getByTestId('siem-card');
  const destination = card.getByTestId('siem-destination');
  await expect(card.getByTestId('siem-vendors').or(destination)).toBeVisible();
  if (await destination.isVisible()) {
    if ((await destination.getAttribute('data-status')) === 'active') {
      await destination.getByTestId('siem-deactivate').click();
      await expect(destination.getByTestId('siem-status')).toHaveText('Inactive');
    }
    await destination.getByTestId('siem-delete').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
  }
  await expect(card.getByTestId('siem-vendors')).toBeVisible();
}

/** Saves the form (the Hub sends a test event first), then activates the destination. */
async function saveAndActivate(page: Page, form: Locator) {
  await form.getByTestId('siem-save').click();
  await expect(page.getByText('SIEM destination saved and tested')).toBeVisible();
  const destination = page.getByTestId('siem-card').getByTestId('siem-destination');
  await expect(destination.getByTestId('siem-status')).toHaveText('Tested');
  await destination.getByTestId('siem-activate').click();
  await expect(destination.getByTestId('siem-status')).toHaveText('Active');
  await expect(destination.getByTestId('siem-edit')).toBeDisabled();
  await expect(destination.getByTestId('siem-delete')).toBeDisabled();
}

/** The group's creation in the event log (searched until the Hub has it); its row. */
async function inTheLog(page: Page, group: string) {
  const row = page.locator(`[data-testid="event-row"][data-activity="group.created"][data-target="${group}"]`);
  // Opened afresh each try: the search lives in the address, so a reload asks the Hub again.
  await expect(async () => {
    await page.goto(`/?q=${encodeURIComponent(group)}#/eventlogs`);
    await page.reload();
    await expect(row).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  return row;
}

/** An admin change in the console, seen in the event log and, by its event id, at the vendor's receiver. */
async function adminChangeDelivered(page: Page, vendor: Vendor, group: string) {
  await createGroup(page, group);
  const row = await inTheLog(page, group);
  const id = (await row.getAttribute('data-event-id')) ?? '';
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  await expect.poll(() => receivers[vendor].received.includes(id), { timeout: 30_000 }).toBe(true);
  // Nothing refused, except (on a retry, by a new receiver) the Sentinel token the Hub kept from the
  // earlier try: refused once, as Azure refuses a revoked one, and replaced by the Hub at once.
  expect(receivers[vendor].rejected.filter((r) => !r.includes('InvalidToken'))).toEqual([]);
  return row;
}

const run = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test('event logs: Splunk HEC against its receiver, an admin change seen in the log and at Splunk; detail, filter, search, export', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, ADMINS.alex.email);
  await resetDestination(page);
  await expect(page).toHaveURL(atRoute('/settings/eventlogs'));
  const card = page.getByTestId('siem-card');
  await expect(page.getByTestId('retention-card')).toBeVisible();
  await shots(page, 'eventlogs-settings');

  // Splunk HEC (self-signed receiver: unverified certificate allowed); the form's checks first.
  await card.getByTestId('siem-configure-splunk').click();
  const form = page.getByTestId('siem-form');
  await form.getByTestId('siem-url').fill('not a url');
  await form.getByTestId('siem-port').fill('123456');
  await form.getByTestId('siem-url').blur();
  await expect(form.getByText('Enter a valid URL')).toBeVisible();
  await expect(form.getByTestId('siem-port')).toHaveValue('12345');
  await expect(form.getByTestId('siem-save')).toBeDisabled();
  await form.getByTestId('siem-url').fill('https://127.0.0.1');
  await form.getByTestId('siem-port').fill(String(receivers.splunk.port));
  await form.getByTestId('siem-token').fill(SPLUNK_TOKEN);
  await form.getByTestId('siem-allow_unverified_certificate').check();
  await shots(page, 'eventlogs-siem-form');
  await saveAndActivate(page, form);

  const group = `Audit ${run()}`;
  const row = await adminChangeDelivered(page, 'splunk', group);
  // A search keeps the "1–n of N" total (counted up to 1,000: a common term's count is capped, not slow).
  await expect(page.getByTestId('pager-range')).toHaveText('1–1 of 1');
  await page.getByTestId('eventlogs-search').fill('group.created');
  await expect(page.getByTestId('pager-range')).toHaveText(/^1–\d+ of [\d,]+\+?$/);
  await page.getByTestId('eventlogs-search').fill(group);
  await expect(page.getByTestId('pager-range')).toHaveText('1–1 of 1');
  await shots(page, 'eventlogs-search');

  // The detail drawer: who, and from where (the console's request: its IP and device).
  await row.click();
  const detail = page.getByTestId('event-detail');
  await expect(detail).toContainText('Group created');
  await expect(detail.getByTestId('event-detail-code')).toHaveText('group.created');
  await expect(detail).toContainText(ADMINS.alex.email);
  await expect(detail).toContainText(/Chrom(e|ium) \d+ on Linux/);
  await shots(page, 'eventlogs-detail');
  await page.keyboard.press('Escape');

  // Filters: the component filter narrows to groups; the log as a whole. Loaded afresh: the
  // options are read once per visit, and the group's event may have reached the Hub after that.
  await page.getByTestId('filters-clear').click();
  await page.reload();
  await expect(page.getByTestId('event-row').first()).toBeVisible();
  await shots(page, 'eventlogs-list');
  await page.getByTestId('filter-components').click();
  await page.getByRole('option', { name: 'Groups', exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('event-row').first()).toHaveAttribute('data-activity', /^group/);

  // Export of the current filter: streamed, with the chain fields.
  const download = page.waitForEvent('download');
  await page.getByTestId('export-button').click();
  await page.getByTestId('export-ndjson').click();
  const file = await (await download).path();
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const events = lines.map((l) => JSON.parse(l) as { component: string; hash: string; prev_hash: string; target: string });
  expect(events.every((e) => e.component === 'groups' && e.hash.length === 64)).toBe(true);
  expect(events.some((e) => e.target === group)).toBe(true);
  await expect(page.getByText(/Exported \d+ events/)).toBeVisible();

  // The whole chain re-computed on the Hub: it holds.
  await page.getByTestId('verify-button').click();
  const verified = page.getByTestId('verify-result');
  await expect(verified).toHaveAttribute('data-ok', 'true');
  await expect(verified).toContainText(/The chain holds: [\d,]+ events checked/);
});

/** The other vendors, each configured in the form against its receiver, activated, then an admin change delivered. */
const OTHERS: { vendor: Vendor; tool: string; title: string; fill: (form: Locator) => Promise<void> }[] = [
  {
    vendor: 'other',
    tool: 'other',
    title: 'a generic HTTPS webhook (HMAC-signed NDJSON)',
    fill: async (form) => {
      await form.getByTestId('siem-url').fill(`${receivers.other.url}/ingest`);
      await form.getByTestId('siem-token').fill(WEBHOOK_TOKEN);
      // The console made a signing secret of its own (shown, copied by the admin to the endpoint).
      const signing = await form.getByTestId('siem-signing_secret').inputValue();
      expect(signing).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(signing).not.toBe(WEBHOOK_TOKEN);
      webhookEndpoint.signingSecret = signing;
    },
  },
  {
    vendor: 'sumo_logic',
    tool: 'sumo_logic',
    title: 'Sumo Logic HTTP source (gzip NDJSON)',
    fill: async (form) => {
      await form.getByTestId('siem-url').fill(`${receivers.sumo_logic.url}/receiver/v1/http/ZaVnC4dhaV3Xq0`);
    },
  },
  {
    vendor: 'sentinel_ingestion',
    tool: 'azure_sentinel',
    title: 'Microsoft Sentinel by the Logs Ingestion API (Entra app token, DCR stream)',
    fill: async (form) => {
      await expect(form.getByTestId('siem-api')).toBeVisible();
      await form.getByTestId('siem-tenant_id').fill(SENTINEL_APP.tenant_id);
      await form.getByTestId('siem-client_id').fill(SENTINEL_APP.client_id);
      await form.getByTestId('siem-client_secret').fill(SENTINEL_APP.client_secret);
      await form.getByTestId('siem-dce_endpoint').fill(receivers.sentinel_ingestion.url);
      await form.getByTestId('siem-dcr_immutable_id').fill('dcr-nope');
      await form.getByTestId('siem-dcr_immutable_id').blur();
      await expect(form.getByText('Enter the rule’s immutable ID')).toBeVisible();
      await expect(form.getByTestId('siem-save')).toBeDisabled();
      await form.getByTestId('siem-dcr_immutable_id').fill(SENTINEL_APP.dcr_immutable_id);
      await form.getByTestId('siem-stream_name').fill(SENTINEL_APP.stream_name);
      await shots(form.page(), 'eventlogs-siem-sentinel-form');
    },
  },
  {
    vendor: 'sentinel_legacy',
    tool: 'azure_sentinel',
    title: 'Microsoft Sentinel by the legacy Data Collector API (SharedKey)',
    fill: async (form) => {
      await form.getByTestId('siem-api').getByText('Data Collector API (legacy)').click();
      await form.getByTestId('siem-workspace_id').fill(SENTINEL_WORKSPACE);
      await form.getByTestId('siem-key').fill(SENTINEL_KEY);
    },
  },
  {
    vendor: 'qradar',
    tool: 'qradar',
    title: 'IBM QRadar (LEEF 2.0 over TLS syslog)',
    fill: async (form) => {
      await form.getByTestId('siem-transport').getByText('Syslog over TLS or TCP').click();
      await expect(form.getByText(/delivery is at least once/)).toBeVisible();
      await form.getByTestId('siem-url').fill(receivers.qradar.url);
      await form.getByTestId('siem-log_source_identifier').fill(QRADAR_SOURCE);
    },
  },
  {
    vendor: 'qradar_http',
    tool: 'qradar',
    title: 'IBM QRadar (LEEF 2.0 to the HTTP Receiver over HTTPS)',
    fill: async (form) => {
      await expect(form.getByTestId('siem-transport').getByLabel('HTTP Receiver (HTTPS)')).toBeChecked();
      await form.getByTestId('siem-url').fill(`${receivers.qradar_http.url}/`);
      await form.getByTestId('siem-log_source_identifier').fill(QRADAR_SOURCE);
    },
  },
];

for (const o of OTHERS) {
  test(`event logs: ${o.title} against its receiver, an admin change seen in the log and at the receiver`, async ({ page }) => {
    test.setTimeout(90_000);
    await signIn(page, ADMINS.alex.email);
    await resetDestination(page);
    await page.getByTestId('siem-card').getByTestId(`siem-configure-${o.tool}`).click();
    const form = page.getByTestId('siem-form');
    await o.fill(form);
    await saveAndActivate(page, form);
    if (o.vendor === 'qradar') await shots(page, 'eventlogs-siem-active');
    await adminChangeDelivered(page, o.vendor, `Audit ${o.vendor} ${run()}`);
    // Leave no destination behind for the next vendor or a later run.
    await resetDestination(page);
  });
}

test('event logs: an unreachable destination shows siem_url_unreachable', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  await resetDestination(page);
  await page.getByTestId('siem-card').getByTestId('siem-configure-other').click();
  const form = page.getByTestId('siem-form');
  await form.getByTestId('siem-url').fill('https://127.0.0.1:1/ingest');
  await form.getByTestId('siem-token').fill('x');
  await form.getByTestId('siem-save').click();
  await expect(form.getByTestId('modal-error')).toHaveText('The SIEM URL could not be reached');
});

test('event logs: a refused test shows "Waiting for test" until one passes (spec §4 badges)', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  await resetDestination(page);
  await page.getByTestId('siem-card').getByTestId('siem-configure-other').click();
  const form = page.getByTestId('siem-form');
  await OTHERS[0]?.fill(form);
  await form.getByTestId('siem-save').click();
  const destination = page.getByTestId('siem-card').getByTestId('siem-destination');
  await expect(destination.getByTestId('siem-status')).toHaveText('Tested');
  webhookEndpoint.down = true;
  try {
    await destination.getByTestId('siem-test').click();
    await expect(page.getByText('The SIEM URL could not be reached')).toBeVisible();
    await expect(destination.getByTestId('siem-status')).toHaveText('Waiting for test');
    await expect(destination).toHaveAttribute('data-status', 'awaiting_config_verification');
    await shots(page, 'eventlogs-siem-waiting-for-test');
  } finally {
    webhookEndpoint.down = false;
  }
  await destination.getByTestId('siem-test').click();
  await expect(destination.getByTestId('siem-status')).toHaveText('Tested');
  await resetDestination(page);
});

test('event logs: a test event Splunk has not yet indexed shows "Pending", then "Tested"', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, ADMINS.alex.email);
  await resetDestination(page);
  await page.getByTestId('siem-card').getByTestId('siem-configure-splunk').click();
  const form = page.getByTestId('siem-form');
  // A token with indexer acknowledgement: Splunk takes the test event, then reports it indexed.
  const splunk = await splunkReceiver(siemTls(process.env.LATCHKEY_E2E_DATA ?? ''), { ack: true, indexes: ['main'] });
  await form.getByTestId('siem-url').fill('https://127.0.0.1');
  await form.getByTestId('siem-port').fill(String(splunk.port));
  await form.getByTestId('siem-token').fill(SPLUNK_TOKEN);
  await form.getByTestId('siem-allow_unverified_certificate').check();
  splunk.indexing = false;
  const destination = page.getByTestId('siem-card').getByTestId('siem-destination');
  try {
    await form.getByTestId('siem-save').click();
    await expect(destination.getByTestId('siem-status')).toHaveText('Pending');
  } finally {
    splunk.indexing = true;
  }
  // The card refreshes on its own (the health panel's interval).
  await expect(destination.getByTestId('siem-status')).toHaveText('Tested', { timeout: 20_000 });
  await resetDestination(page);
});

test('event logs: a pull token made in the console reads the events API, then is revoked', async ({ page, request }) => {
  await signIn(page, ADMINS.alex.email);
  await page.goto('/#/settings/eventlogs');
  const card = page.getByTestId('pull-token-card');
  await card.getByTestId('pull-token-create').click();
  const token = (await card.getByTestId('pull-token-shown').locator('code').textContent()) ?? '';
  expect(token).toMatch(/^lkpull_/);
  await shots(page, 'eventlogs-pull-token');
  const pulled = await request.get(`${HUB_URL}/api/v1/events/pull/?limit=5&format=ocsf`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(pulled.status()).toBe(200);
  const body = (await pulled.json()) as { events: { class_uid: number }[] };
  expect(body.events.length).toBeGreaterThan(0);
  await card.getByTestId('pull-token-revoke').click();
  await expect(card.getByTestId('pull-token-state')).toHaveText('No token yet.');
  const refused = await request.get(`${HUB_URL}/api/v1/events/pull/`, { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
});
