import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { startTestIdp, type TestIdp } from '../../apps/server/src/test/saml-idp.ts';
import { type SamlifyIdp, startSamlifyIdp } from '../../apps/server/src/test/samlify-idp.ts';
import { atRoute, continueButton, emailInput, flipSwitch, openProfileMenu, readSession, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/** The SSO walk-through's demo team (apps/server/src/features/demo/sign-in.demo.ts, SSO_DEMO). */
const ALPINE = { slug: 'alpine', name: 'Alpine Ski House' };
const FIONA = 'fiona@alpine.example';
const FELIX = 'felix@alpine.example';
/** An admin of Alpine Ski House and the super admin of Alpine Rentals (no SSO). */
const GUS = 'gus@alpine.example';
const RENTALS = { slug: 'alpine-rentals', name: 'Alpine Rentals' };

// One walk-through over one team's connector: its steps run in order.
test.describe.configure({ mode: 'serial' });

let idp: TestIdp;
let samlify: SamlifyIdp;
test.beforeAll(async () => {
  // An identity provider running in the test process (apps/server/src/test/saml-idp.ts).
  idp = await startTestIdp();
  idp.user = { nameId: FELIX, attributes: { email: [FELIX], displayName: ['Felix Braun'], groups: ['Engineering', 'Admins'] } };
  // A second, independent one on samlify (apps/server/src/test/samlify-idp.ts).
  samlify = await startSamlifyIdp();
  samlify.user = { email: FELIX, name: 'Felix Braun' };
});
test.afterAll(async () => {
  await idp?.close();
  await samlify?.close();
});

/** Email → SSO (enforced) → the IdP → ACS → the sso page. */
async function ssoSignIn(page: Page, email: string) {
  await page.goto('/#/login');
  await emailInput(page).fill(email);
  await continueButton(page).click();
}

/** Runs a connector's test in its window and checks Felix came back with the checks passed; the result panel. */
async function testPasses(page: Page, card: Locator): Promise<Locator> {
  const popupPromise = page.waitForEvent('popup');
  await card.getByTestId('sso-test').click();
  const popup = await popupPromise;
  await popup.waitForEvent('close', { timeout: 20_000 });
  const result = card.getByTestId('sso-test-result');
  await expect(result.getByTestId('sso-test-outcome')).toContainText('The test passed');
  await expect(result.getByTestId('sso-attributes')).toContainText(FELIX);
  await expect(result.getByTestId('sso-attributes')).toContainText('Felix Braun');
  await expect(result.getByTestId('sso-check-signature')).toContainText('Passed');
  await expect(result.getByTestId('sso-check-audience')).toContainText('Passed');
  await expect(result).toContainText('is an admin of your team');
  await expect(card.getByTestId('sso-status')).toHaveText('Tested');
  return result;
}

test('configure by metadata, test (the tester shows the attributes), activate, enforce', async ({ page }) => {
  await signIn(page, FIONA, { expectPath: '/dashboard' });
  await page.goto('/#/settings/sso-connector');
  await expect(page.getByRole('heading', { name: 'SSO connector' })).toBeVisible();
  await expect(page.getByTestId('sso-sp-acs')).toHaveText(/\/sso\/login\/saml\/acs\/$/);
  await expect(page.getByTestId('sso-sp-entity')).toHaveText(/\/sso\/saml\/alpine$/);
  await expect(page.getByTestId('sso-empty')).toBeVisible();

  await page.getByTestId('sso-create').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Connector name').fill('Alpine Ski House IdP');
  await dialog.getByTestId('sso-create-save').click();
  const card = page.getByTestId('sso-config-Alpine Ski House IdP');
  await expect(card.getByTestId('sso-status')).toHaveText('Waiting for metadata');

  // Enforcing before a successful test is refused.
  await flipSwitch(page.getByTestId('sso-enforce'));
  await expect(page.getByTestId('sso-policy-error')).toContainText('passed its test');

  await card.getByTestId('sso-metadata-url').fill(`${idp.url}/metadata`);
  await card.getByTestId('sso-metadata-fetch').click();
  await expect(card.getByTestId('sso-status')).toHaveText('Waiting for test');
  await expect(card).toContainText(idp.entityId);
  await shots(page, 'sso-connector-configured');

  // Test configuration: the IdP in a window; the result comes back over the BroadcastChannel.
  const result = await testPasses(page, card);
  await expect(result.getByTestId('sso-attributes')).toContainText('Engineering, Admins');
  await shots(page, 'sso-connector-tested');

  await card.getByTestId('sso-activate').click();
  await expect(card.getByTestId('sso-status')).toHaveText('Active');

  // Break-glass: enforcement needs a super admin with a password excluded.
  await flipSwitch(page.getByTestId('sso-enforce'));
  await expect(page.getByTestId('sso-policy-error')).toContainText('never be locked out');
  await flipSwitch(page.getByTestId(`sso-exclude-${FIONA}`));
  await expect(page.getByTestId(`sso-exclude-${FIONA}`)).toBeChecked();
  await flipSwitch(page.getByTestId('sso-enforce'));
  await expect(page.getByTestId('sso-enforce')).toBeChecked();
  await expect(page.getByTestId('sso-policy-error')).toHaveCount(0);
  await shots(page, 'sso-connector-enforced');
});

test('Felix signs in via SSO; Fiona, excluded, still signs in with her password', async ({ page, browser }) => {
  await ssoSignIn(page, FELIX);
  await expect(page).toHaveURL(atRoute('/dashboard'), { timeout: 20_000 });
  const session = await readSession(page);
  expect(session?.team_slug).toBe(ALPINE.slug);

  const other = await browser.newPage();
  await signIn(other, FIONA, { expectPath: '/dashboard' });
  await other.close();
});

test('team switch into the team that enforces SSO goes through its identity provider', async ({ page }) => {
  idp.user = { nameId: GUS, attributes: { email: [GUS], displayName: ['Gus Keller'] } };
  await signIn(page, GUS, { team: RENTALS.name, expectPath: '/dashboard' });
  await expect(page.getByTestId('team-name')).toHaveText(RENTALS.name);
  expect((await readSession(page))?.team_slug).toBe(RENTALS.slug);

  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Switch teams' }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch teams' });
  await dialog.getByRole('radio', { name: ALPINE.name }).check();
  await dialog.getByRole('button', { name: 'Switch team' }).click();

  // Alpine Ski House enforces SSO for Gus: straight to its identity provider, back through the ACS.
  await expect(page).toHaveURL(atRoute('/dashboard'), { timeout: 20_000 });
  await expect(page.getByTestId('team-name')).toHaveText(ALPINE.name);
  expect((await readSession(page))?.team_slug).toBe(ALPINE.slug);
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  idp.user = { nameId: FELIX, attributes: { email: [FELIX] } };
});

test('failure paths show the §8 page: another audience (45038), another person (45032)', async ({ page }) => {
  idp.overrides = { audience: 'https://elsewhere.example/sp' };
  await ssoSignIn(page, FELIX);
  await expect(page).toHaveURL(/#\/sso\?/);
  await expect(page.getByText('Error: 45038')).toBeVisible();
  await expect(page.getByRole('link', { name: /log ?in|sign ?in/i })).toBeVisible();
  await shots(page, 'sso-error-45038');

  idp.overrides = { user: { nameId: FIONA, attributes: {} } };
  await ssoSignIn(page, FELIX);
  await expect(page.getByText('Error: 45032')).toBeVisible();
  await expect(page.getByText('does not match')).toBeVisible();
  idp.overrides = {};
});

test('a second connector: its preset’s setup steps and signature, metadata dropped as a file', async ({ page }) => {
  await signIn(page, FIONA, { expectPath: '/dashboard' });
  await page.goto('/#/settings/sso-connector');
  await page.getByTestId('sso-create').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Connector name').fill('Alpine Okta');
  await dialog.getByTestId('sso-create-type').click();
  await page.getByRole('option', { name: 'Okta' }).click();
  await dialog.getByTestId('sso-create-save').click();
  const card = page.getByTestId('sso-config-Alpine Okta');
  await expect(card.getByTestId('sso-status')).toHaveText('Waiting for metadata');

  // Okta signs the response and the assertion by default: the connector demands both.
  await card.getByRole('button', { name: 'Setup steps in Okta' }).click();
  await expect(card.getByTestId('sso-setup-steps')).toContainText('Audience URI (SP Entity ID)');
  await expect(card.getByTestId('sso-setup-signature')).toContainText('Signed response and assertion');
  await expect(card.getByRole('combobox', { name: 'Signature required' })).toHaveValue('Signed response and assertion');

  // Not an .xml file: refused in the browser, nothing sent.
  await card.locator('input[type="file"]').setInputFiles({
    name: 'metadata.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('not metadata'),
  });
  await expect(card.getByTestId('sso-metadata-file-error')).toHaveText(
    "Choose the identity provider's metadata as an .xml file.",
  );

  // The metadata file dropped on the card.
  const files = await page.evaluateHandle((xml) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([xml], 'idp-metadata.xml', { type: 'text/xml' }));
    return transfer;
  }, idp.metadataXml);
  await card.getByTestId('sso-metadata-drop').dispatchEvent('drop', { dataTransfer: files });
  await expect(card.getByTestId('sso-status')).toHaveText('Waiting for test');
  await expect(card).toContainText(idp.entityId);
  await expect(card.getByTestId('sso-metadata-file-error')).toHaveCount(0);
  await shots(page, 'sso-connector-preset-steps');

  await card.getByTestId('sso-delete').click();
  await page.getByTestId('sso-delete-confirm').click();
  await expect(card).toHaveCount(0);
});

test('a connector on samlify, an independent IdP: configured by metadata, its test shows the attributes', async ({ page }) => {
  await signIn(page, FIONA, { expectPath: '/dashboard' });
  await page.goto('/#/settings/sso-connector');
  // The admin gives the IdP our SP metadata, downloaded from the page.
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('sso-sp-download').click();
  const download = await downloadPromise;
  samlify.trustServiceProvider(await readFile(await download.path(), 'utf8'));

  await page.getByTestId('sso-create').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Connector name').fill('Alpine samlify');
  await dialog.getByTestId('sso-create-type').click();
  await page.getByRole('option', { name: 'Other SAML 2.0 provider' }).click();
  await dialog.getByTestId('sso-create-save').click();
  const card = page.getByTestId('sso-config-Alpine samlify');
  await expect(card).toContainText('Other SAML 2.0 provider');
  await card.getByTestId('sso-metadata-url').fill(`${samlify.url}/metadata`);
  await card.getByTestId('sso-metadata-fetch').click();
  await expect(card.getByTestId('sso-status')).toHaveText('Waiting for test');
  await expect(card).toContainText(samlify.entityId);

  await testPasses(page, card);
  await shots(page, 'sso-connector-samlify-tested');

  // Not left behind: the walk-through's own connector stays the team's only one.
  await card.getByTestId('sso-delete').click();
  await page.getByTestId('sso-delete-confirm').click();
  await expect(card).toHaveCount(0);
});

test('team switch into the team that offers SSO (not enforced): the password page with its SSO button, through the identity provider', async ({
  page,
  browser,
}) => {
  // Fiona turns enforcement off: Alpine Ski House now only offers SSO.
  await signIn(page, FIONA, { expectPath: '/dashboard' });
  await page.goto('/#/settings/sso-connector');
  await expect(page.getByTestId('sso-enforce')).toBeChecked();
  await flipSwitch(page.getByTestId('sso-enforce'));
  await expect(page.getByTestId('sso-enforce')).not.toBeChecked();

  // Gus, in a browser of his own, works in Alpine Rentals and switches.
  idp.user = { nameId: GUS, attributes: { email: [GUS], displayName: ['Gus Keller'] } };
  const gus = await browser.newPage();
  await signIn(gus, GUS, { team: RENTALS.name, expectPath: '/dashboard' });
  const menu = await openProfileMenu(gus);
  await menu.getByRole('menuitem', { name: 'Switch teams' }).click();
  const dialog = gus.getByRole('dialog', { name: 'Switch teams' });
  await dialog.getByRole('radio', { name: ALPINE.name }).check();
  await dialog.getByRole('button', { name: 'Switch team' }).click();

  // Gus has a password: its page for Alpine Ski House, with SSO offered beside it.
  await expect(gus).toHaveURL(atRoute('/login/verify-password'));
  await gus.getByRole('button', { name: 'Sign In With SSO' }).click();
  await expect(gus).toHaveURL(atRoute('/dashboard'), { timeout: 20_000 });
  await expect(gus.getByTestId('team-name')).toHaveText(ALPINE.name);
  expect((await readSession(gus))?.team_slug).toBe(ALPINE.slug);
  await expect(gus.getByText('Something went wrong')).toHaveCount(0);
  await gus.close();
  idp.user = { nameId: FELIX, attributes: { email: [FELIX] } };
});
