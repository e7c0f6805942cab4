import { atRoute, continueButton, emailInput, enterCode } from '../support/latchkey.ts';
import { latestCode, mailCursor } from '../support/mail.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/** A new admin without a password (apps/server/src/features/security/security.demo.ts). */
const PAT = 'pat@northwind.example';

test('set_password_first: a new admin proves the email, sets a password on /login/set-password and is signed in', async ({
  page,
}) => {
  // The step's guard: without the set-password token it goes back to /login.
  await page.goto('/#/login/set-password');
  await expect(page).toHaveURL(atRoute('/login'));

  const after = await mailCursor();
  await emailInput(page).fill(PAT);
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/verify-otp'));
  await enterCode(page, await latestCode(PAT, { after }));
  await expect(page).toHaveURL(atRoute('/login/set-password'));
  await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await shots(page, 'login-set-password');
  await page.getByRole('button', { name: 'Set a password' }).click();
  await expect(page.getByText('Please enter a password')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('pat-first-password');
  await page.getByLabel('Retype new password').fill('pat-other-password');
  await page.getByRole('button', { name: 'Set a password' }).click();
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await page.getByLabel('Retype new password').fill('pat-first-password');
  await page.getByRole('button', { name: 'Set a password' }).click();
  await expect(page).toHaveURL(atRoute('/dashboard'));
});
