import { ADMINS, atRoute, emailInput, SESSION_KEY, signIn } from '../support/latchkey.ts';
import { expect, test } from '../support/test.ts';

// Playwright turns Chromium's back-forward cache off by default; this file needs it on.
test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  },
});

test('a console page restored from the back-forward cache goes to /login (spec §2), which shows sign-in once the session is gone', async ({
  page,
}) => {
  await page.addInitScript(`addEventListener('pageshow', (event) => { window.restoredFromCache = event.persisted; });`);
  await signIn(page, ADMINS.adam.email);
  await expect(page.getByTestId('page-dashboard')).toBeVisible();

  // Leave for another document, end the session there (as signing out in another tab would)…
  await page.goto('/privacy.html');
  await page.evaluate(`localStorage.removeItem(${JSON.stringify(SESSION_KEY)})`);
  // …and come back: the dashboard comes out of the cache as it was, and is sent to /login.
  await page.goBack();
  expect(await page.evaluate<boolean>('window.restoredFromCache === true')).toBe(true);
  await expect(page).toHaveURL(atRoute('/login'));
  await expect(emailInput(page)).toBeVisible();
  await expect(page.getByTestId('page-dashboard')).toHaveCount(0);
});
