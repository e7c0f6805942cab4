import type { Page } from '@playwright/test';
import { type ExtraHub, extraHub } from '../support/extra-hub.ts';
import {
  ADMINS,
  atRoute,
  continueButton,
  FAMILY,
  familyTrialPopupSeen,
  flipSwitch,
  passwordAndCode,
  readSession,
  sidebarNav,
  signIn,
} from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// Spec §2 route guard and layout, §5 https rule, §7 integration calls, §8 toggle codes and Hub
// unreachable, §1 feature versions. Sam's family team connects Hubs of its own (extra
// processes), so the demo Hub the other specs rely on is never touched.

const current = extraHub(0, '2.2.0');
const older = extraHub(1, '2.0');

const signInFamily = (page: Page) => signIn(page, ADMINS.sam.email, { team: FAMILY.name, expectPath: '/dashboard' });

/** Connects the family team to `hub` from the integration screen; ends signed in again. */
async function connect(page: Page, hub: ExtraHub, version: string): Promise<void> {
  await page.goto('/#/integration');
  const card = page.getByTestId('hub-connect');
  await card.getByTestId('hub-url').fill(hub.url);
  await card.getByTestId('hub-check').click();
  await expect(card.getByTestId('hub-check-result')).toContainText(`Hub ${version}`);
  await expect(card.getByTestId('hub-check-result')).toContainText('This Hub does not serve your team yet.');
  // The Hub's operator mints a setup key for this team only (`npm run hub-cli -- setup-key`).
  await card.getByTestId('hub-setup-key').fill(hub.setupKey(FAMILY.slug));
  await card.getByTestId('hub-connect-submit').click();
  // Spec §4: integration_successful signs out, so the next sign-in brings the Hub's tokens.
  await expect(page).toHaveURL(atRoute('/login'));
  await expect(page.getByTestId('logout-notice')).toHaveAttribute('data-reason', 'integration_successful');
  // The login page keeps the email and team of the session that just ended.
  await page.getByRole('radio', { name: FAMILY.name }).check();
  await continueButton(page).click();
  // Spec §4: the path the admin was on is remembered (not a manual logout).
  await passwordAndCode(page, ADMINS.sam.email, { expectPath: '/integration' });
  expect((await readSession(page))?.hub?.server_url).toBe(hub.url);
}

const navLink = (page: Page, name: string) => sidebarNav(page).getByRole('link', { name });

/** The tooltip of a disabled sidebar item (it sits on the item's wrapper, as a disabled link gets no pointer events). */
async function tooltipOf(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await navLink(page, name).locator('..').hover();
  return page.getByRole('tooltip');
}

async function toggle(page: Page, service: string, on: boolean): Promise<void> {
  const sw = page.getByTestId(`toggle-${service}`);
  // The switch is the server's answer: it moves once the Hub and the server have agreed.
  await flipSwitch(sw);
  if (on) await expect(sw).toBeChecked();
  else await expect(sw).not.toBeChecked();
  await expect(page.getByText('Services updated.').first()).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

// The family team's trial popup would cover the sidebar these tests hover.
test.beforeEach(({ page }) => familyTrialPopupSeen(page));

test.beforeAll(async () => {
  await current.start();
  await older.start();
});
test.afterAll(async () => {
  await current.dispose();
  await older.dispose();
});

test('connect a Hub by its address, then switch each service on and see the sidebar follow', async ({ page }) => {
  test.setTimeout(120_000);
  await signInFamily(page);
  // No Hub yet: the Hub items are shown but closed, and there is no green dot.
  await expect(navLink(page, 'Security Audit')).toHaveAttribute('aria-disabled', 'true');
  await expect(navLink(page, 'Integration').getByTestId('integration-dot')).toHaveCount(0);

  await page.goto('/#/integration');
  const card = page.getByTestId('hub-connect');
  // Spec §5: https is required for an address that is not this machine.
  await card.getByTestId('hub-url').fill('http://hub.example.com');
  await card.getByTestId('hub-check').click();
  await expect(card.getByText('The address must start with https://')).toBeVisible();
  // A wrong setup key, or one the operator minted for another team, is refused by the Hub
  // itself (the server registers there, never the browser), and nothing is left behind.
  await card.getByTestId('hub-url').fill(current.url);
  await card.getByTestId('hub-check').click();
  await expect(card.getByTestId('hub-check-result')).toContainText('Hub 2.2.0');
  for (const wrong of ['not-the-setup-key', current.setupKey('northwind')]) {
    await card.getByTestId('hub-setup-key').fill(wrong);
    await card.getByTestId('hub-connect-submit').click();
    await expect(card.getByTestId('hub-connect-error')).toHaveText(
      'The setup key is not valid for this team, has expired or was already used.',
    );
  }
  await expect(page.getByTestId('credentials-empty')).toBeVisible();
  await shots(page, 'integration-connect');

  await connect(page, current, '2.2.0');
  await page.goto('/#/integration');
  await expect(page.getByTestId('hub-address')).toHaveText(current.url);
  await expect(page.getByTestId('hub-reachable')).toHaveText('Connected');
  await expect(page.getByTestId('credential-row')).toHaveCount(1);

  for (const [service, link] of [
    ['audit', 'Security Audit'],
    ['secret_sharing', 'Sharing'],
    ['recovery', 'Recovery'],
  ] as const) {
    if (service !== 'recovery') await expect(navLink(page, link)).toHaveAttribute('aria-disabled', 'true');
    await toggle(page, service, true);
    await expect(page.getByTestId(`service-${service}`)).toContainText('Running');
    await expect(navLink(page, link)).not.toHaveAttribute('aria-disabled', 'true');
  }
  await toggle(page, 'audit_logs', true);
  await expect(navLink(page, 'Integration').getByTestId('integration-dot')).toBeVisible();
  await shots(page, 'integration-connected');

  // The route guard follows: open while the service runs, back to '/' once it is switched off.
  await navLink(page, 'Security Audit').click();
  await expect(page).toHaveURL(atRoute('/audit'));
  await page.goto('/#/integration');
  await toggle(page, 'audit', false);
  await expect(navLink(page, 'Security Audit')).toHaveAttribute('aria-disabled', 'true');
  await page.goto('/#/audit');
  await expect(page).toHaveURL(atRoute('/dashboard'));
});

test('a Hub that stops: hub_connection_failed, Hub links disabled, toggles explain; back when it returns', async ({ page }) => {
  test.setTimeout(120_000);
  await current.stop();
  await signInFamily(page);
  // At sign-in the Hub did not answer: the console works on and says so.
  await expect(page.getByText('Your Hub did not answer').first()).toBeVisible();
  expect((await readSession(page))?.hub).toBeNull();
  await expect(navLink(page, 'Recovery')).toHaveAttribute('aria-disabled', 'true');
  await expect(navLink(page, 'Sharing')).toHaveAttribute('aria-disabled', 'true');
  await expect(navLink(page, 'Integration').getByTestId('integration-dot')).toHaveCount(0);
  await expect(await tooltipOf(page, 'Sharing')).toHaveText('This service reported an error on your Hub.');

  await page.goto('/#/integration');
  await expect(page.getByTestId('hub-unreachable')).toHaveText(
    'Could not reach your Hub. Check that it is running and reachable from this browser.',
  );
  await expect(page.getByTestId('hub-reachable')).toHaveText('Error');
  // Spec §8: aux_server_not_connected shows the server's description.
  await flipSwitch(page.getByTestId('toggle-audit'));
  await expect(page.getByText(`The Hub at ${current.url} did not answer.`)).toBeVisible();
  await shots(page, 'integration-unreachable');

  await current.start();
  await page.reload();
  await expect(page.getByTestId('hub-reachable')).toHaveText('Connected');
  await expect(navLink(page, 'Recovery')).not.toHaveAttribute('aria-disabled', 'true');
  await expect(navLink(page, 'Integration').getByTestId('integration-dot')).toBeVisible();
});

test('an older Hub (2.0): features above its version are offered only as an upgrade', async ({ page }) => {
  test.setTimeout(120_000);
  await signInFamily(page);
  await page.goto('/#/integration');
  // Delete connector: the Hub forgets the team, the server drops the credential.
  await page.getByTestId('hub-delete-open').click();
  await page.getByTestId('hub-delete-confirm').click();
  await expect(page.getByText('The Hub connector was deleted.')).toBeVisible();
  await expect(page.getByTestId('hub-connect')).toBeVisible();
  await expect(navLink(page, 'Integration').getByTestId('integration-dot')).toHaveCount(0);
  const registered = await fetch(`${current.url}/api/v1/integrate/connector/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ team_slug: FAMILY.slug }),
  });
  expect(await registered.json()).toMatchObject({ registered: false });

  await connect(page, older, '2.0');
  await page.goto('/#/integration');
  await expect(page.getByTestId('hub-version')).toHaveText('Hub 2.0');
  for (const service of ['audit', 'secret_sharing']) {
    await expect(page.getByTestId(`toggle-${service}`)).toBeDisabled();
    await expect(page.getByTestId(`service-${service}-upgrade`)).toHaveText('Upgrade your Hub to 2.1 to unlock this');
  }
  const features = {
    audit: 'upgrade',
    sharing: 'upgrade',
    sharing_v2: 'upgrade',
    siem: 'available',
    recovery_link: 'available',
    recovery_notification: 'available',
  };
  for (const [feature, state] of Object.entries(features)) {
    await expect(page.getByTestId(`feature-${feature}`)).toHaveAttribute('data-state', state);
  }
  await expect(page.getByTestId('feature-sharing_v2')).toContainText('Upgrade your Hub to 2.2 to unlock this');
  await toggle(page, 'recovery', true);
  await expect(navLink(page, 'Recovery')).not.toHaveAttribute('aria-disabled', 'true');
  await expect(await tooltipOf(page, 'Security Audit')).toHaveText('Upgrade your Hub to version 2.1 or later to use this.');
  await shots(page, 'integration-older-hub');
});

test('credentials: add shows no secret, rename, set up needs a setup key, delete; hosting preference', async ({ page }) => {
  await signInFamily(page);
  await page.goto('/#/integration');
  await expect(page.getByTestId('credential-row')).toHaveCount(1);

  await page.getByTestId('credential-add-open').click();
  const add = page.getByTestId('credential-add-dialog');
  await add.getByLabel('Name').fill('Spare Hub');
  await add.getByRole('button', { name: 'Add credential' }).click();
  // A credential only names a connection: its id, nothing that could sign anything.
  const added = page.getByTestId('credential-added');
  await expect(added).toContainText('It holds no secret');
  await expect(added.locator('code')).toHaveCount(1);
  await expect(added.locator('code')).toHaveText(/^hub-/);
  await shots(page, 'integration-credential-added');
  await added.getByRole('button', { name: 'Continue' }).click();

  const row = page.getByTestId('credential-row').filter({ hasText: 'Spare Hub' });
  await expect(row).toContainText('Not set up');
  await row.getByRole('button', { name: 'Actions for Spare Hub' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const rename = page.getByTestId('credential-rename-dialog');
  await rename.getByLabel('Name').fill('Standby Hub');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Credential saved.')).toBeVisible();

  const renamed = page.getByTestId('credential-row').filter({ hasText: 'Standby Hub' });
  await renamed.getByRole('button', { name: 'Actions for Standby Hub' }).click();
  await page.getByRole('menuitem', { name: 'Set up on a Hub' }).click();
  const setup = page.getByTestId('credential-setup-dialog');
  await setup.getByLabel('Hub address').fill('http://hub.example.com');
  await expect(setup.getByText('The address must start with https://')).toBeVisible();
  // A Hub that does not serve the team yet wants its operator's setup key for it.
  await setup.getByLabel('Hub address').fill(current.url);
  await setup.getByRole('button', { name: 'Set up on a Hub' }).click();
  await expect(setup.getByTestId('modal-error')).toHaveText(
    'The setup key is not valid for this team, has expired or was already used.',
  );
  await setup.getByRole('button', { name: 'Cancel' }).click();

  await renamed.getByRole('button', { name: 'Actions for Standby Hub' }).click();
  await page.getByRole('menuitem', { name: 'Delete credential' }).click();
  await page.getByTestId('credential-delete-dialog').getByRole('button', { name: 'Delete credential' }).click();
  await expect(page.getByText('Credential deleted.')).toBeVisible();
  await expect(page.getByTestId('credential-row')).toHaveCount(1);

  // With the team's Hub connected, where the services run is decided: self-hosted.
  await expect(page.getByTestId('hosting-choice').locator('input[value="self_hosted"]')).toBeChecked();
  await expect(page.getByTestId('hosting-choice').locator('input[value="not_set"]')).toBeDisabled();
});
