import { HUB_URL } from '../support/env.ts';
import {
  ADMINS,
  atRoute,
  openProfileMenu,
  readSession,
  seenTexts,
  sidebarNav,
  signIn,
  watchForTexts,
} from '../support/latchkey.ts';
import { shot, shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// Spec §2 Layout, UI.md Frame.

test('the demo Hub: tokens exchanged at sign-in, green dot beside Integration, Hub items enabled', async ({ page }) => {
  await watchForTexts(page, ['Your Hub did not answer']);
  await signIn(page, ADMINS.alex.email);
  await expect(page.getByTestId('team-name')).toBeVisible();

  // Spec §4 Login sequence: the aux code was exchanged at the team's Hub for Hub tokens.
  const session = await readSession(page);
  expect(session?.team_slug).toBe('northwind');
  expect(session?.hub?.server_url).toBe(HUB_URL);
  expect(session?.hub?.tokens.access).toEqual(expect.any(String));
  expect(session?.hub?.tokens.refresh).toEqual(expect.any(String));
  expect(session?.hub?.tokens.hub_version).toMatch(/^\d+(\.\d+)+$/);
  expect(session?.hub?.tokens.expires_at).toBeGreaterThan(Date.now());

  const nav = sidebarNav(page);
  const integration = nav.getByRole('link', { name: 'Integration' });
  await expect(integration.getByTestId('integration-dot')).toBeVisible();
  await expect(integration.getByRole('img', { name: 'Hub services are running' })).toBeVisible();
  // Every service of the demo Hub runs, so no Hub item is disabled.
  for (const name of ['Security Audit', 'Sharing', 'Event Logs', 'Recovery']) {
    const link = nav.getByRole('link', { name });
    await expect(link).toBeVisible();
    await expect(link).not.toHaveAttribute('aria-disabled', 'true');
  }
  await nav.getByRole('link', { name: 'Security Audit' }).click();
  await expect(page).toHaveURL(atRoute('/audit'));
  await expect(page.getByTestId('page-audit').getByRole('heading', { name: 'Security Audit' })).toBeVisible();
  // The current item is marked.
  await expect(nav.getByRole('link', { name: 'Security Audit' })).toHaveAttribute('data-active', 'true');
  // The footer is its own landmark beside the page's main content, not inside it.
  await expect(page.getByRole('contentinfo')).toContainText('All rights reserved.');
  await expect(page.getByRole('main').getByRole('contentinfo')).toHaveCount(0);

  // The version entry of the profile menu reports the Hub's version from the exchange.
  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: /^Version / }).click();
  await expect(page.getByRole('dialog', { name: 'About Latchkey' })).toContainText(
    `Hub version ${session?.hub?.tokens.hub_version}`,
  );
  // The Hub answered at sign-in, so no 'did not answer' toast was shown at any point.
  expect(await seenTexts(page)).toEqual([]);
});

test("the sign-in page's footer shows the copyright and the privacy policy link", async ({ page, request }) => {
  await page.goto('/#/login');
  const footer = page.locator('footer');
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Latchkey. All rights reserved.`);
  const privacy = footer.getByRole('link', { name: 'Privacy policy' });
  await expect(privacy).toBeVisible();
  const href = await privacy.getAttribute('href');
  expect(href).toBeTruthy();
  const response = await request.get(new URL(href ?? '', page.url()).toString());
  expect(response.status()).toBe(200);
  // An English browser gets no language picker.
  await expect(footer.locator('input, select')).toHaveCount(0);
});

test.describe('a browser in a language the console does not ship (Swahili)', () => {
  test.use({ locale: 'sw-KE' });

  test('reads English and still gets the footer language picker, which switches the language', async ({ page }) => {
    await page.goto('/#/login');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const picker = page.locator('footer').getByRole('combobox', { name: 'Language' });
    await expect(picker).toBeVisible();
    await expect(picker).toHaveValue('en');
    await shot(page, 'login-footer-picker-swahili', 320);
    await shots(page, 'login-footer-picker-swahili');
    await picker.selectOption('de');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  });
});

test.describe('a browser in Austrian German (a regional variant the console does not ship)', () => {
  test.use({ locale: 'de-AT' });

  test('reads German (the base language) by default, with the picker', async ({ page }) => {
    await page.goto('/#/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
    await expect(page.locator('footer').locator('select')).toHaveValue('de');
  });
});

test.describe('on a phone (375 px)', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('a desktop-only screen (SSO connector) says it is not available on mobile; it opens on a desktop', async ({ page }) => {
    await signIn(page, ADMINS.alex.email);
    await page.goto('/#/settings/sso-connector');
    const unavailable = page.getByTestId('mobile-unavailable');
    await expect(unavailable).toContainText('This page is not available on mobile');
    await expect(unavailable).toContainText('Open the console on a computer to continue.');
    await expect(page.getByTestId('sso-sp')).toHaveCount(0);
    await shot(page, 'sso-connector-mobile-unavailable', 320);
    await shot(page, 'sso-connector-mobile-unavailable', 375);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(unavailable).toHaveCount(0);
    await expect(page.getByTestId('sso-sp')).toBeVisible();
    await shot(page, 'sso-connector-desktop', 1280);
    // A screen that is not desktop-only opens on the phone.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/#/settings/account-security');
    await expect(page.getByTestId('page-settings/account-security')).toBeVisible();
    await expect(page.getByTestId('mobile-unavailable')).toHaveCount(0);
  });

  test('the sidebar is a drawer: hidden, opened by the toggle, closed after choosing an item', async ({ page }) => {
    await signIn(page, ADMINS.adam.email);
    const nav = sidebarNav(page);
    const users = nav.getByRole('link', { name: 'Users' });
    await expect(page.getByTestId('team-name')).toBeVisible();
    await expect(users).not.toBeInViewport();

    await page.getByTestId('sidebar-toggle').click();
    await expect(users).toBeInViewport();
    await users.click();

    await expect(page).toHaveURL(atRoute('/users'));
    await expect(page.getByTestId('page-users')).toBeVisible();
    await expect(users).not.toBeInViewport();

    // Opened again, the toggle closes it too.
    await page.getByTestId('sidebar-toggle').click();
    await expect(users).toBeInViewport();
    await page.getByTestId('sidebar-toggle').click();
    await expect(users).not.toBeInViewport();
  });
});
