import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { Page } from '@playwright/test';
import { apiPost, apiSignIn } from '../support/api.ts';
import { ADMINS, atRoute, signIn } from '../support/latchkey.ts';
import { mailCursor, messagesTo } from '../support/mail.ts';
import { shot } from '../support/screenshots.ts';
import { siemTls } from '../support/siem.ts';
import { expect, test } from '../support/test.ts';

// Alert rules on the event log: a super admin switches on the failed-sign-in template with an
// e-mail to an administrator chosen from the team's list and a signed webhook; five wrong passwords from one address later the mail arrives, the
// webhook receives a correctly signed call, the firing is in the rule's history and in the log.

const SECRET = 'e2e-alert-signing-secret-0123456789';
interface Call {
  body: string;
  timestamp: string;
  signature: string;
  idempotencyKey: string;
}
const calls: Call[] = [];
let receiver: Server;
let port = 0;

test.beforeAll(async () => {
  // The certificate the suite's Hub trusts (SIEM_CA_FILE): the webhook must be https.
  const tls = siemTls(process.env.LATCHKEY_E2E_DATA ?? '');
  receiver = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      calls.push({
        body: Buffer.concat(parts).toString('utf8'),
        timestamp: String(req.headers['x-latchkey-timestamp'] ?? ''),
        signature: String(req.headers['x-latchkey-signature'] ?? ''),
        idempotencyKey: String(req.headers['idempotency-key'] ?? ''),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  port = (receiver.address() as { port: number }).port;
});

test.afterAll(async () => {
  await new Promise((done) => receiver.close(done));
});

/** The receiver's check, as docs/alerts.md tells an integrator: HMAC-SHA256 of "<timestamp>.<raw body>", fresh timestamp. */
function signedCorrectly(call: Call): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(`${call.timestamp}.${call.body}`).digest('hex')}`);
  const given = Buffer.from(call.signature);
  const fresh = Math.abs(Date.now() / 1000 - Number(call.timestamp)) < 300;
  return fresh && given.length === expected.length && timingSafeEqual(given, expected);
}

const ruleRow = (page: Page, name: string) => page.locator(`[data-testid="alert-rule-row"][data-name="${name}"]`);

/** At 1280, 375 and 320 px; a drawer as the window shows it (a full-page picture stretches the page behind it). */
async function threeWidths(page: Page, name: string, fullPage = true) {
  for (const width of [1280, 375, 320]) await shot(page, name, width, { fullPage });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('alert rules: the failed sign-in template e-mails and calls a signed webhook after five wrong passwords; history and log show the firing', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const run = Date.now().toString(36);
  const name = `Failed sign-ins ${run}`;
  const inbox = `alerts-${run}@northwind.example`;
  // Alert e-mail goes to administrators only: the alerts' mailbox is an administrator of its own,
  // so no other spec's wait for Alex's sign-in code reads an alert.
  const alexToken = await apiSignIn(ADMINS.alex.email, 'northwind');
  const added = await apiPost(
    '/organization/admin/user/add/',
    { email: inbox, scopes: ['admin'] },
    { authorization: `Bearer ${alexToken}` },
  );
  expect(added.status).toBe(200);
  try {
    await alertRulesWalk(page, name, inbox, alexToken);
  } finally {
    await apiPost(
      '/organization/admin/user/remove/',
      { action: 'remove_admin', email: inbox },
      { authorization: `Bearer ${alexToken}` },
    );
  }
});

/** A retry finds the rule its earlier try switched on: deleted, so the template is offered again. */
async function deleteTemplateRules(page: Page) {
  await expect(page.locator('[data-testid="alert-template"], [data-testid="alert-rule-row"]').first()).toBeVisible();
  const left = page.locator('[data-testid="alert-rule-row"][data-template="failed_sign_ins"]');
  for (let n = await left.count(); n > 0; n--) {
    await left.first().getByTestId('alert-rule-menu').click();
    await page.getByTestId('alert-rule-delete').click();
    await page.getByTestId('confirm-action').click();
    await expect(left).toHaveCount(n - 1);
  }
}

async function alertRulesWalk(page: Page, name: string, inbox: string, alexToken: string) {
  await signIn(page, ADMINS.alex.email);
  await page.goto('/#/eventlogs');
  await page.getByTestId('eventlogs-alerts-link').click();
  await expect(page).toHaveURL(atRoute('/eventlogs/alerts'));
  await deleteTemplateRules(page);

  // One click on the template; its dialog starts with an e-mail to the admin, the webhook is added.
  const template = page.locator('[data-testid="alert-template"][data-key="failed_sign_ins"]');
  await expect(template).toContainText('Five failed sign-ins from one IP address within 10 minutes.');
  await threeWidths(page, 'eventlogs-alerts');
  await template.getByTestId('alert-template-on').click();
  const dialog = page.getByTestId('alert-template-dialog');
  await dialog.getByTestId('alert-template-name').fill(name);
  await expect(dialog.getByText(`${ADMINS.alex.name} (${ADMINS.alex.email})`)).toBeVisible();
  // Recipients are picked from the team's administrators: nobody else is offered.
  const emails = dialog.getByTestId('alert-dest-emails');
  await emails.click();
  await emails.press('Backspace');
  await expect(dialog.getByText(ADMINS.alex.email)).toHaveCount(0);
  // The team's administrators by name and address (Alex, just taken out, is offered again);
  // searched, so the list is short enough to show whole in the picture.
  await expect(page.getByRole('option', { name: `${ADMINS.alex.name} (${ADMINS.alex.email})` })).toBeVisible();
  await emails.fill('Adam');
  await expect(page.getByRole('option', { name: `${ADMINS.adam.name} (${ADMINS.adam.email})` })).toBeVisible();
  await threeWidths(page, 'eventlogs-alerts-recipients', false);
  await emails.fill('nobody.here@');
  await expect(page.getByText('No administrator matches.')).toBeVisible();
  await emails.fill(inbox);
  await page.getByRole('option', { name: inbox }).click();
  await expect(dialog.getByText(inbox)).toBeVisible();
  await dialog.getByTestId('alert-dest-webhook').check();
  await dialog.getByTestId('alert-dest-webhook-url').fill(`https://127.0.0.1:${port}/latchkey-alerts`);
  // A short secret is refused on its field before anything is sent.
  await dialog.getByTestId('alert-dest-webhook-secret').fill('short');
  await dialog.getByTestId('alert-template-submit').click();
  await expect(dialog.getByText('Enter a signing secret of at least 32 characters.')).toBeVisible();
  await dialog.getByTestId('alert-dest-webhook-secret').fill(SECRET);
  await threeWidths(page, 'eventlogs-alerts-switch-on', false);
  await dialog.getByTestId('alert-template-submit').click();
  await expect(page.getByText(`“${name}” is switched on.`)).toBeVisible();
  const row = ruleRow(page, name);
  await expect(row).toHaveAttribute('data-template', 'failed_sign_ins');
  await expect(row).toContainText('5 matches in 10 minutes per IP address');
  await expect(row).toContainText(inbox);
  await expect(row).toContainText('Signed webhook 127.0.0.1');
  await expect(template).toHaveCount(0);
  await threeWidths(page, 'eventlogs-alerts-rules');

  // The rule's form: the stored secret is never shown back.
  await row.getByTestId('alert-rule-menu').click();
  await page.getByTestId('alert-rule-edit').click();
  const form = page.getByTestId('alert-rule-form');
  await expect(form.getByTestId('alert-rule-name')).toHaveValue(name);
  await expect(form.getByTestId('alert-dest-webhook-secret')).toHaveValue('');
  await expect(form.getByTestId('alert-dest-webhook-url')).toHaveValue(`https://127.0.0.1:${port}/latchkey-alerts`);
  await threeWidths(page, 'eventlogs-alerts-form', false);
  await expect(form.getByTestId('alert-dest-emails')).toHaveValue('');
  await form.getByTestId('alert-dest-webhook').scrollIntoViewIfNeeded();
  await expect(form.getByText(inbox)).toBeVisible();
  await threeWidths(page, 'eventlogs-alerts-form-recipients', false);
  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);

  // Five wrong passwords for an admin, from one address.
  const mailAfter = await mailCursor();
  const address = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;
  const from = { 'x-forwarded-for': address };
  await apiPost('/api/v1/console/auth/login/', { email: ADMINS.adam.email, team_slug: 'northwind' }, from);
  for (let i = 0; i < 5; i++) {
    const wrong = await apiPost(
      '/api/v1/console/auth/verify/password/',
      { email: ADMINS.adam.email, password: `not-the-password-${i}`, team_slug: 'northwind' },
      from,
    );
    expect(wrong.status).toBeGreaterThanOrEqual(400);
  }

  // The mail to the admin, and one correctly signed webhook call for the firing.
  await expect(async () => {
    const mail = (await messagesTo(inbox, mailAfter)).filter((m) => m.subject.includes(name));
    expect(mail.map((m) => m.subject)).toEqual([`[Latchkey] Alert: "${name}" — 5 matching events (${address})`]);
  }).toPass({ timeout: 60_000 });
  await expect(async () => {
    const fired = calls.filter((c) => JSON.parse(c.body).type === 'alert.fired');
    expect(fired).toHaveLength(1);
  }).toPass({ timeout: 30_000 });
  const call = calls.find((c) => JSON.parse(c.body).type === 'alert.fired') as Call;
  expect(signedCorrectly(call)).toBe(true);
  expect(signedCorrectly({ ...call, body: call.body.replace('"event_count":5', '"event_count":6') })).toBe(false);
  const payload = JSON.parse(call.body) as { id: string; rule: { name: string }; event_count: number; group: string };
  expect(payload).toMatchObject({ rule: { name }, event_count: 5, group: address });
  expect(call.idempotencyKey).toBe(payload.id);

  // The rule's history: the firing, its five events, each destination delivered.
  await page.reload();
  await row.getByTestId('alert-rule-menu').click();
  await page.getByTestId('alert-rule-history').click();
  const firing = page.getByTestId('alert-history').getByTestId('alert-firing').first();
  await expect(firing.getByTestId('alert-firing-count')).toHaveText(`Matching events: 5 · ${address}`);
  await expect(firing.locator('[data-testid="alert-delivery"][data-kind="email"]')).toHaveAttribute('data-status', 'delivered');
  await expect(firing.locator('[data-testid="alert-delivery"][data-kind="webhook"]')).toHaveAttribute('data-status', 'delivered');
  await expect(row).not.toContainText('Never');
  await threeWidths(page, 'eventlogs-alerts-history', false);

  // The matched events open in the event log, filtered; and the firing is an event of the log.
  await firing.getByTestId('alert-firing-events').click();
  await expect(page).toHaveURL(/[?&]activity=auth\.sign_in_failed/);
  await expect(page.locator('[data-testid="event-row"][data-activity="auth.sign_in_failed"]')).toHaveCount(5);
  await page.goto('/#/eventlogs');
  await page.getByTestId('eventlogs-search').fill('alert.fired');
  await expect(page.locator('[data-testid="event-row"][data-activity="alert.fired"]').first()).toBeVisible();
  await expect(page.locator('[data-testid="event-row"][data-activity="alert.fired"]').first()).toHaveAttribute(
    'data-target',
    name,
  );

  // Ten test alerts later the history holds eleven firings: ten a page, the pager under them, the
  // first firing on the second page.
  await page.goto('/#/eventlogs/alerts');
  for (let i = 0; i < 10; i++) {
    await row.getByTestId('alert-rule-menu').click();
    await page.getByTestId('alert-rule-test').click();
    // Each notice is closed: ten of them, top right, would cover the next row's menu.
    const sent = page.getByRole('alert').filter({ hasText: `A test alert is on its way for “${name}”.` });
    await sent.first().getByRole('button').click();
    await expect(sent).toHaveCount(0);
  }
  await row.getByTestId('alert-rule-menu').click();
  await page.getByTestId('alert-rule-history').click();
  const history = page.getByTestId('alert-history');
  await expect(history.getByTestId('pager-range')).toHaveText('1–10 of 11');
  await expect(history.getByTestId('alert-firing')).toHaveCount(10);
  await expect(history.getByTestId('alert-firing').first()).toHaveAttribute('data-test', 'true');
  await history.getByTestId('pager').getByRole('button', { name: '2' }).click();
  await expect(history.getByTestId('pager-range')).toHaveText('11–11 of 11');
  await expect(history.getByTestId('alert-firing')).toHaveCount(1);
  await expect(history.getByTestId('alert-firing-count')).toHaveText(`Matching events: 5 · ${address}`);
  for (const width of [1280, 375, 320]) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 740 });
    await history.getByTestId('pager').scrollIntoViewIfNeeded();
    await shot(page, 'eventlogs-alerts-history-pager', width, { fullPage: false });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The mailbox is no longer an administrator: the form marks it, and the Hub refuses to keep it.
  const removed = await apiPost(
    '/organization/admin/user/remove/',
    { action: 'remove_admin', email: inbox },
    { authorization: `Bearer ${alexToken}` },
  );
  expect(removed.status).toBe(200);
  await page.goto('/#/eventlogs/alerts');
  await page.reload();
  await ruleRow(page, name).getByTestId('alert-rule-menu').click();
  await page.getByTestId('alert-rule-edit').click();
  const edit = page.getByTestId('alert-rule-form');
  const refusal = `Alerts are e-mailed to the team's administrators only. Not an administrator: ${inbox}.`;
  await expect(edit.getByText(`${inbox} (no longer an administrator)`)).toBeVisible();
  await expect(edit.getByTestId('alert-destinations').getByText(refusal)).toBeVisible();
  await edit.getByTestId('alert-dest-emails').scrollIntoViewIfNeeded();
  await threeWidths(page, 'eventlogs-alerts-form-gone', false);
  await edit.getByTestId('alert-rule-save').click();
  await expect(edit.getByTestId('modal-error')).toHaveText(refusal);
}
