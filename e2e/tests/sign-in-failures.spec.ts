import { HUB_URL } from '../support/env.ts';
import {
  ADMINS,
  atRoute,
  continueButton,
  DEMO_PASSWORD,
  emailInput,
  enterCode,
  passwordInput,
  signIn,
} from '../support/latchkey.ts';
import { latestCode, mailCursor, withMailLock } from '../support/mail.ts';
import { expect, test } from '../support/test.ts';

// Built behaviours no other spec drives: Resend code (spec §2 verify-otp), the hub_unreachable
// sign-out with its Learn More link (§4, §8), and the page-error screen's Retry (§2 Layout).

test('Resend code mails a new code; the new code signs in', async ({ page }) => {
  const email = ADMINS.adam.email;
  await page.goto('/#/login');
  await emailInput(page).fill(email);
  await continueButton(page).click();
  await withMailLock(email, async () => {
    const first = await mailCursor();
    await passwordInput(page).fill(DEMO_PASSWORD);
    await continueButton(page).click();
    await expect(page).toHaveURL(atRoute('/login/verify-otp'));
    const old = await latestCode(email, { after: first });
    const resent = await mailCursor();
    await page.getByRole('button', { name: 'Resend code' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'A new code is on its way.' })).toBeVisible();
    const fresh = await latestCode(email, { after: resent });
    expect(fresh).toMatch(/^\d{6}$/);
    expect(fresh).not.toBe(old);
    await enterCode(page, fresh);
  });
  await expect(page).toHaveURL(atRoute('/dashboard'));
});

test('a recovery agent whose Hub cannot be reached is signed out with hub_unreachable and a Learn More link', async ({
  page,
}) => {
  // The browser cannot reach the Hub (the network refuses it): the console gets no Hub tokens.
  await page.route(`${HUB_URL}/**`, (route) => route.abort('connectionrefused'));
  await page.goto('/#/login');
  await emailInput(page).fill(ADMINS.rory.email);
  await continueButton(page).click();
  await withMailLock(ADMINS.rory.email, async () => {
    const after = await mailCursor();
    await passwordInput(page).fill(DEMO_PASSWORD);
    await continueButton(page).click();
    await expect(page).toHaveURL(atRoute('/login/verify-otp'));
    await enterCode(page, await latestCode(ADMINS.rory.email, { after }));
  });
  await expect(page).toHaveURL(atRoute('/login'));
  const notice = page.getByTestId('logout-notice');
  await expect(notice).toHaveAttribute('data-reason', 'hub_unreachable');
  await expect(notice).toContainText('Your Hub could not be reached, so you were signed out.');
  const help = notice.getByRole('link', { name: 'Learn more' });
  await expect(help).toBeVisible();
  await help.click();
  await expect(page).toHaveURL(/\/help\/hub-unreachable\.html$/);
  await expect(page.locator('h1')).toBeVisible();
});

test('a screen whose code fails to load shows the page-error screen; Retry reloads and shows it', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  // The Integration screen's own chunk fails once (a deploy replaced it, the network dropped it).
  const screenChunk = /\/assets\/Integration-[\w-]+\.js$/;
  await page.route(screenChunk, (route) => route.abort('failed'));
  await page.goto('/#/integration');
  const error = page.getByTestId('page-error');
  await expect(error).toBeVisible();
  await expect(error).toContainText('This page could not be shown');
  await expect(page.locator('html')).toHaveAttribute('data-global-error', 'true');
  await page.unroute(screenChunk);
  await error.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('page-integration')).toBeVisible();
  await expect(page.getByTestId('page-error')).toHaveCount(0);
});
