import type { Page } from '@playwright/test';
import { startTestIdp, type TestIdp } from '../../apps/server/src/test/saml-idp.ts';
import { atRoute, continueButton, emailInput, readSession, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/** The SSO walk-through's demo team (apps/server/src/features/demo/sign-in.demo.ts, SSO_DEMO). */
const ALPINE = { slug: 'alpine', name: 'Alpine Ski House' };
const FIONA = 'fiona@alpine.example';
const FELIX = 'felix@alpine.example';

// One walk-through over one team's connector: its steps run in order.
test.describe.configure({ mode: 'serial' });

let idp: TestIdp;
test.beforeAll(async () => {
  // An identity provider running in the test process (apps/server/src/test/saml-idp.ts).
  idp = await startTestIdp();
  idp.user = { nameId: FELIX, attributes: { email: [FELIX], displayName: ['Felix Braun'], groups: ['Engineering', 'Admins'] } };
});
test.afterAll(async () => idp?.close());

/** Email → SSO (enforced) → the IdP → ACS → the sso page. */
async function ssoSignIn(page: Page, email: string) {
  await page.goto('/#/login');
  await emailInput(page).fill(email);
  await continueButton(page).click();
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
  await page.getByTestId('sso-enforce').click({ force: true });
  await expect(page.getByTestId('sso-policy-error')).toContainText('passed its test');

  await card.getByTestId('sso-metadata-url').fill(`${idp.url}/metadata`);
  await card.getByTestId('sso-metadata-fetch').click();
  await expect(card.getByTestId('sso-status')).toHaveText('Waiting for test');
  await expect(card).toContainText(idp.entityId);
  await shots(page, 'sso-connector-configured');

  // Test configuration: the IdP in a window; the result comes back over the BroadcastChannel.
  const popupPromise = page.waitForEvent('popup');
  await card.getByTestId('sso-test').click();
  const popup = await popupPromise;
  await popup.waitForEvent('close', { timeout: 20_000 });
  const result = card.getByTestId('sso-test-result');
  await expect(result.getByTestId('sso-test-outcome')).toContainText('The test passed');
  await expect(result.getByTestId('sso-attributes')).toContainText(FELIX);
  await expect(result.getByTestId('sso-attributes')).toContainText('Engineering, Admins');
  await expect(result.getByTestId('sso-attributes')).toContainText('Felix Braun');
  await expect(result.getByTestId('sso-check-signature')).toContainText('Passed');
  await expect(result.getByTestId('sso-check-audience')).toContainText('Passed');
  await expect(result).toContainText('is an admin of your team');
  await expect(card.getByTestId('sso-status')).toHaveText('Tested');
  await shots(page, 'sso-connector-tested');

  await card.getByTestId('sso-activate').click();
  await expect(card.getByTestId('sso-status')).toHaveText('Active');

  // Break-glass: enforcement needs a super admin with a password excluded.
  await page.getByTestId('sso-enforce').click({ force: true });
  await expect(page.getByTestId('sso-policy-error')).toContainText('never be locked out');
  await page.getByTestId(`sso-exclude-${FIONA}`).click({ force: true });
  await expect(page.getByTestId(`sso-exclude-${FIONA}`)).toBeChecked();
  await page.getByTestId('sso-enforce').click({ force: true });
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
