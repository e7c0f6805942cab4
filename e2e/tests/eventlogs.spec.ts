import { readFileSync } from 'node:fs';
import {
  type Receiver,
  SPLUNK_TOKEN,
  selfSignedCert,
  splunkReceiver,
  WEBHOOK_TOKEN,
  webhookReceiver,
} from '../../apps/hub/src/testing/siem-receivers.ts';
import { HUB_URL } from '../support/env.ts';
import { ADMINS, atRoute, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

test.describe.configure({ mode: 'serial' });

let splunk: Receiver;
let webhook: Receiver;

test.beforeAll(async () => {
  const tls = selfSignedCert();
  splunk = await splunkReceiver(tls);
  webhook = await webhookReceiver(tls);
});

/** Creates a group in the console, as an admin change whose event must reach the log and the SIEM. */
async function createGroup(page: import('@playwright/test').Page, name: string) {
  await page.goto('/#/groups');
  await page.getByTestId('group-create-open').click();
  const create = page.getByTestId('group-create-dialog');
  await create.getByTestId('group-name').fill(name);
  await create.getByTestId('group-create-submit').click();
  await expect(page.getByText(`Group ${name} created.`)).toBeVisible();
}

test('event logs: SIEM destinations against local receivers, an admin change seen in the log and at the receiver, filter, search, export', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  await signIn(page, ADMINS.alex.email);

  // ── settings: configure Splunk HEC (self-signed receiver: unverified certificate allowed) ──
  await page.goto('/#/settings/eventlogs');
  await expect(page).toHaveURL(atRoute('/settings/eventlogs'));
  const card = page.getByTestId('siem-card');
  await expect(card.getByTestId('siem-vendors')).toBeVisible();
  await expect(page.getByTestId('retention-card')).toBeVisible();
  await shots(page, 'eventlogs-settings');

  await card.getByTestId('siem-configure-splunk').click();
  const form = page.getByTestId('siem-form');
  await form.getByTestId('siem-url').fill('not a url');
  await form.getByTestId('siem-port').fill('123456');
  await form.getByTestId('siem-url').blur();
  await expect(form.getByText('Enter a valid URL')).toBeVisible();
  await expect(form.getByTestId('siem-port')).toHaveValue('12345');
  await expect(form.getByTestId('siem-save')).toBeDisabled();
  await form.getByTestId('siem-url').fill('https://127.0.0.1');
  await form.getByTestId('siem-port').fill(String(splunk.port));
  await form.getByTestId('siem-token').fill(SPLUNK_TOKEN);
  await form.getByTestId('siem-allow_unverified_certificate').check();
  await shots(page, 'eventlogs-siem-form');
  await form.getByTestId('siem-save').click();
  await expect(page.getByText('SIEM destination saved and tested')).toBeVisible();
  const destination = card.getByTestId('siem-destination');
  await expect(destination.getByTestId('siem-status')).toHaveText('Tested');
  await destination.getByTestId('siem-activate').click();
  await expect(destination.getByTestId('siem-status')).toHaveText('Active');
  await expect(destination.getByTestId('siem-edit')).toBeDisabled();
  await expect(destination.getByTestId('siem-delete')).toBeDisabled();

  // ── an admin change in the console: in the event log, and at Splunk ──
  const group = `Audit ${run}`;
  await createGroup(page, group);
  await page.goto('/#/eventlogs');
  await expect(page).toHaveURL(atRoute('/eventlogs'));
  const row = page.locator(`[data-testid="event-row"][data-activity="group.created"][data-target="${group}"]`);
  await expect(async () => {
    await page.getByTestId('eventlogs-search').fill('');
    await page.getByTestId('eventlogs-search').fill(group);
    await expect(row).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect.poll(() => splunk.received.length, { timeout: 30_000 }).toBeGreaterThan(1);
  expect(splunk.rejected).toEqual([]);

  // The detail drawer.
  await row.click();
  const detail = page.getByTestId('event-detail');
  await expect(detail).toContainText('group.created');
  await expect(detail).toContainText(ADMINS.alex.email);
  await shots(page, 'eventlogs-detail');
  await page.keyboard.press('Escape');

  // Filters: the component filter narrows to groups; the log as a whole.
  await page.getByTestId('filters-clear').click();
  await expect(page.getByTestId('event-row').first()).toBeVisible();
  await shots(page, 'eventlogs-list');
  await page.getByTestId('filter-components').click();
  await page.getByRole('option', { name: 'groups', exact: true }).click();
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

  // ── switch to the generic webhook: deactivate, delete, configure, activate ──
  await page.goto('/#/settings/eventlogs');
  await destination.getByTestId('siem-deactivate').click();
  await expect(destination.getByTestId('siem-status')).toHaveText('Inactive');
  await destination.getByTestId('siem-delete').click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
  await card.getByTestId('siem-configure-other').click();
  await form.getByTestId('siem-url').fill(`${webhook.url}/ingest`);
  await form.getByTestId('siem-token').fill(WEBHOOK_TOKEN);
  await form.getByTestId('siem-allow_unverified_certificate').check();
  await form.getByTestId('siem-save').click();
  await destination.getByTestId('siem-activate').click();
  await expect(destination.getByTestId('siem-status')).toHaveText('Active');
  await shots(page, 'eventlogs-siem-active');
  const second = `Audit ${run} b`;
  await createGroup(page, second);
  await expect.poll(() => webhook.received.length, { timeout: 30_000 }).toBeGreaterThan(1);
  expect(webhook.rejected).toEqual([]);

  // Leave no destination behind for a later run.
  await page.goto('/#/settings/eventlogs');
  await destination.getByTestId('siem-deactivate').click();
  await expect(destination.getByTestId('siem-status')).toHaveText('Inactive');
  await destination.getByTestId('siem-delete').click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(card.getByTestId('siem-vendors')).toBeVisible();
});

test('event logs: an unreachable destination shows siem_url_unreachable', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  await page.goto('/#/settings/eventlogs');
  await page.getByTestId('siem-card').getByTestId('siem-configure-other').click();
  const form = page.getByTestId('siem-form');
  await form.getByTestId('siem-url').fill('https://127.0.0.1:1/ingest');
  await form.getByTestId('siem-token').fill('x');
  await form.getByTestId('siem-save').click();
  await expect(form.getByTestId('modal-error')).toHaveText('The SIEM URL could not be reached');
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
