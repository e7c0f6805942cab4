import type { Page } from '@playwright/test';
import { atRoute, openProfileMenu, sidebarNav, signIn } from '../support/latchkey.ts';
import { shot, shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// Spec §2 Onboarding wizard, §4 Onboarding with and without a cloud, §8 onboarding codes, §9.
// Demo teams apps/server/src/features/demo/onboarding.demo.ts: one per test, each starts at welcome.
const FAY = 'fay@fabrikam.example'; // Fabrikam, Google Drive
const LIA = 'lia@litware.example'; // Litware, OneDrive
const TIA = 'tia@tailspin.example'; // Tailspin, no cloud
const TOM = 'tom@tailspin.example'; // Tailspin's admin

const wizard = (page: Page) => page.getByTestId('onboarding-wizard');
const atStep = async (page: Page, step: string) => expect(wizard(page)).toHaveAttribute('data-step', step);
const error = (page: Page) => page.getByTestId('onboarding-error');

async function logOut(page: Page) {
  await (await openProfileMenu(page)).getByTestId('logout').click();
  await expect(page).toHaveURL(atRoute('/login'));
}

/**
 * The media panel (spec §2): a picture shipped with the console (no request leaves it), drawn, with
 * its text alternative; the still picture when the browser asks for reduced motion.
 */
async function mediaPanel(page: Page, name: string, alt: string) {
  await expect(page.getByTestId('onboarding-media')).toHaveAttribute('data-media', name);
  const image = page.getByTestId('onboarding-media-image');
  await expect(image).toHaveAttribute('alt', alt);
  const shown = () => image.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? img.currentSrc : ''));
  await expect.poll(shown).not.toBe('');
  const moving = await shown();
  const still = await page
    .getByTestId('onboarding-media-still')
    .evaluate((source: HTMLSourceElement) => new URL(source.srcset, document.baseURI).href);
  expect(moving).not.toBe(still);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await expect.poll(shown).toBe(still);
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await expect.poll(shown).toBe(moving);
  for (const src of [moving, still])
    expect(src.startsWith('data:') || new URL(src).origin === new URL(page.url()).origin).toBe(true);
}

test('with a cloud: popup blocked, popup closed, not connected, admin help, added, setup, finish', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, FAY, { expectPath: '/onboarding' });
  await atStep(page, '0');
  // The counter names the steps the admin walks (1, with its admin help 1.1, and 2), never a "Step 0".
  await expect(page.getByTestId('onboarding-progress')).toHaveCount(0);
  await expect(page.getByTestId('onboarding-steps')).toHaveAttribute('data-total', '2');
  await expect(page.getByTestId('onboarding-steps')).toHaveAttribute('data-reached', '0');
  await expect(page.getByTestId('onboarding-media')).toBeVisible();
  await expect(page.getByTestId('onboarding-back')).toHaveCount(0);
  await mediaPanel(page, 'team', "Your team's members connected to one shared, encrypted vault");
  await shots(page, 'onboarding-welcome');

  await page.getByRole('button', { name: 'Get started' }).click();
  await atStep(page, '1');
  await mediaPanel(page, 'cloud', "Encrypted vaults stored in your organisation's cloud storage");
  await expect(page.getByTestId('onboarding-progress')).toHaveText('Step 1 of 2');
  await expect(page.getByTestId('onboarding-skip')).toHaveCount(0);

  // The browser blocks the popup: popups_blocked, with the steps to allow them.
  await page.evaluate('window.realOpen = window.open; window.open = () => null;');
  await page.getByTestId('consent-start').click();
  await expect(error(page)).toContainText('Your browser blocked the window');
  await expect(page.getByTestId('popup-steps').getByRole('listitem')).toHaveCount(3);
  await page.evaluate('window.open = window.realOpen;');

  // The admin closes the 600×500 popup: popup_closed.
  await page.evaluate(`
    window.features = [];
    const open = window.open;
    window.open = (...args) => { window.features.push(String(args[2])); return open.apply(window, args); };
  `);
  let popupOpens = page.waitForEvent('popup');
  await page.getByTestId('consent-start').click();
  let popup = await popupOpens;
  await expect(popup.getByRole('link', { name: 'Grant' })).toBeVisible();
  expect(await page.evaluate<string[]>('window.features')).toEqual([expect.stringMatching(/^popup=yes,width=600,height=500,/)]);
  await popup.close();
  await expect(error(page)).toContainText('The window was closed before Latchkey was added');

  // The consent is refused in the cloud: app_not_activated.
  popupOpens = page.waitForEvent('popup');
  await page.getByTestId('consent-start').click();
  popup = await popupOpens;
  await popup.getByRole('link', { name: 'Deny' }).click();
  await expect(error(page)).toContainText('Latchkey was not approved');

  // Next verifies the connection first.
  await page.getByTestId('onboarding-next').click();
  await expect(error(page)).toContainText('Your cloud storage is not connected yet');
  await atStep(page, '1');

  // 1.1 while the server cannot be reached (the network failure alone is simulated): the help
  // link's call fails, link_fetch_error says so in place of the link, and the step stays.
  const helpLinkCall = '**/organization/auth/verify/url/';
  await page.route(helpLinkCall, (route) => route.abort('connectionrefused'));
  await page.getByTestId('onboarding-not-admin').click();
  await atStep(page, '1.1');
  await expect(page.getByTestId('help-link-error')).toHaveText('Something went wrong. Please try again.');
  await expect(page.getByTestId('help-link')).toHaveCount(0);
  await page.unroute(helpLinkCall);
  await page.getByTestId('onboarding-back').click();
  await atStep(page, '1');

  // 1.1 with the server back: the link is asked for again and shown, copied for 2 s; no forward;
  // back shows 'app not added'.
  await page.getByTestId('onboarding-not-admin').click();
  await atStep(page, '1.1');
  await expect(page.getByTestId('onboarding-progress')).toHaveText('Step 1 of 2');
  await expect(page.getByTestId('onboarding-next')).toHaveCount(0);
  const link = page.getByTestId('help-link');
  await expect(link).toHaveValue(/\/onboarding\/consent\/stand-in\/\?state=/);
  await page.getByTestId('help-link-copy').click();
  await expect(page.getByTestId('help-link-copy')).toHaveText('Copied');
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(await link.inputValue());
  await expect(page.getByTestId('help-link-copy')).toHaveText('Copy', { timeout: 4000 });
  await shots(page, 'onboarding-admin-help');
  await shot(page, 'onboarding-admin-help', 320);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('onboarding-back').click();
  await atStep(page, '1');
  await expect(error(page)).toHaveText('Latchkey has not been added to your enterprise apps yet.');

  // Granted in the popup: the message comes back, the server verified it.
  popupOpens = page.waitForEvent('popup');
  await page.getByTestId('consent-start').click();
  popup = await popupOpens;
  await popup.getByRole('link', { name: 'Grant' }).click();
  await expect(page.getByTestId('consent-success')).toContainText('Google Workspace');
  await expect(error(page)).toHaveCount(0);
  await shots(page, 'onboarding-added');

  // Setup: the download for this system, and Other Platforms (configurable locations).
  await page.getByTestId('onboarding-next').click();
  await atStep(page, '2');
  await expect(page.getByTestId('onboarding-progress')).toHaveText('Step 2 of 2');
  await expect(page.getByTestId('download-mine')).toHaveText('Download for Linux');
  await expect(page.getByTestId('download-mine')).toHaveAttribute('href', 'https://latchkey.example/downloads/linux');
  await expect(page.getByTestId('download-other')).toHaveAttribute('href', 'https://latchkey.example/downloads/');
  await expect(page.getByTestId('master-password')).toHaveCount(0);
  await shots(page, 'onboarding-setup');
  await page.getByTestId('onboarding-skip').click();
  await atStep(page, '3');
  await expect(page.getByTestId('onboarding-progress')).toHaveCount(0);
  await expect(page.getByTestId('onboarding-steps')).toHaveAttribute('data-reached', '2');
  await expect(page.getByTestId('onboarding-back')).toHaveCount(0);
  await shots(page, 'onboarding-finish');

  await page.getByRole('button', { name: 'Explore Admin Dashboard' }).click();
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await expect(page.getByTestId('nav-resume-onboarding')).toHaveCount(0);
  // Finished: /onboarding is no longer open, and '/' is the landing page.
  await page.goto('/#/onboarding');
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await page.goto('/#/');
  await expect(page).toHaveURL(atRoute('/dashboard'));
});

test('logging out mid-wizard and resuming; setting it aside and resuming from the sidebar; small screens', async ({ page }) => {
  await signIn(page, LIA, { expectPath: '/onboarding' });
  await page.getByRole('button', { name: 'Get started' }).click();
  await page.getByTestId('onboarding-not-admin').click();
  await atStep(page, '1.1');
  // Logging out on 1.1 saves the add-to-enterprise stage.
  await logOut(page);

  await signIn(page, LIA, { expectPath: '/onboarding' });
  await expect(wizard(page)).toHaveAttribute('data-stage', 'resume');
  await expect(page.getByRole('heading', { name: 'Resume onboarding' })).toBeVisible();
  await expect(page.getByTestId('onboarding-progress')).toHaveCount(0);
  await shots(page, 'onboarding-resume');
  await page.getByTestId('onboarding-resume').click();
  await atStep(page, '1');
  await expect(error(page)).toHaveText('Latchkey has not been added to your enterprise apps yet.');

  // 'Explore Your Admin Console' sets the wizard aside: the console, with 'Resume onboarding'.
  await page.getByTestId('onboarding-not-admin').click();
  await page.getByTestId('onboarding-explore').click();
  await expect(page).toHaveURL(atRoute('/dashboard'));
  const resume = page.getByTestId('nav-resume-onboarding');
  await expect(resume).toBeVisible();
  await page.goto('/#/onboarding');
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await resume.click();
  await expect(page).toHaveURL(atRoute('/onboarding'));
  await expect(wizard(page)).toHaveAttribute('data-stage', 'resume');
  await expect(resume).toHaveCount(0);
  await page.getByTestId('onboarding-resume').click();
  await atStep(page, '1');

  // Small screens: the wizard asks for a computer.
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(page.getByTestId('onboarding-desktop-only')).toContainText('needs a larger screen');
  await shots(page, 'onboarding-small-screen');
});

test('without a cloud: 0, 1, 2; logging out on the last step finishes the wizard', async ({ page }) => {
  await signIn(page, TIA, { expectPath: '/onboarding' });
  await atStep(page, '0');
  await expect(page.getByTestId('onboarding-progress')).toHaveCount(0);
  await expect(page.getByTestId('onboarding-steps')).toHaveAttribute('data-total', '1');
  await page.getByRole('button', { name: 'Get started' }).click();
  await atStep(page, '1');
  await expect(page.getByTestId('onboarding-progress')).toHaveText('Step 1 of 1');
  await expect(page.getByRole('heading', { name: 'Set up the app' })).toBeVisible();
  await expect(page.getByTestId('master-password')).toContainText('Master password requirement');
  await page.getByTestId('onboarding-back').click();
  await atStep(page, '0');
  await page.getByRole('button', { name: 'Get started' }).click();
  await page.getByTestId('onboarding-next').click();
  await atStep(page, '2');
  await expect(page.getByTestId('onboarding-progress')).toHaveCount(0);
  await expect(page.getByTestId('onboarding-steps')).toHaveAttribute('data-reached', '1');

  await logOut(page);
  await signIn(page, TIA, { expectPath: '/dashboard' });
  await expect(page.getByTestId('nav-resume-onboarding')).toHaveCount(0);
  await page.goto('/#/onboarding');
  await expect(page).toHaveURL(atRoute('/dashboard'));
});

test('an admin of a team in onboarding never sees the wizard (super admin only)', async ({ page }) => {
  await signIn(page, TOM, { expectPath: '/dashboard' });
  await page.goto('/#/onboarding');
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await expect(sidebarNav(page).getByTestId('nav-resume-onboarding')).toHaveCount(0);
});
