import { apiPost, apiSignIn } from '../support/api.ts';
import { ADMINS, atRoute, continueButton, emailInput } from '../support/latchkey.ts';
import { shot, shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// Sign-in steps built earlier but not driven by any other spec: the step guards, Change email,
// Contact support and the no-admin-found screen (spec §2 Login screens and Guards).

test('step guards: verify-otp, verify-totp, verify-backup-code, set-password and sso-otp-choice need the earlier steps', async ({
  page,
}) => {
  for (const step of ['verify-otp', 'verify-totp', 'verify-backup-code', 'set-password', 'sso-otp-choice']) {
    await page.goto(`/#/login/${step}`);
    await expect(page, step).toHaveURL(atRoute('/login'));
  }
  // An email alone (password sign-in, no password yet) opens none of the code steps either.
  await page.goto('/#/login');
  await emailInput(page).fill(ADMINS.alex.email);
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  for (const step of ['verify-otp', 'verify-totp', 'verify-backup-code']) {
    await page.goto(`/#/login/${step}`);
    await expect(page, step).toHaveURL(atRoute('/login'));
  }
});

test('Change email on the password step goes back to the email step, emptied', async ({ page }) => {
  await page.goto('/#/login');
  await emailInput(page).fill(ADMINS.adam.email);
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  await expect(page.getByTestId('login-email')).toHaveText(`${ADMINS.adam.email} · Northwind Traders`);
  await page.getByRole('link', { name: 'Change email' }).click();
  await expect(page).toHaveURL(atRoute('/login'));
  await expect(emailInput(page)).toBeVisible();
  // The email is forgotten: the password step is closed again.
  await page.goto('/#/login/verify-password');
  await expect(page).toHaveURL(atRoute('/login'));
});

test('forgot password offers Contact support, a mail to the support address', async ({ page }) => {
  await page.goto('/#/login');
  await emailInput(page).fill(ADMINS.adam.email);
  await continueButton(page).click();
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(atRoute('/login/forgot-password'));
  const support = page.getByRole('link', { name: 'Contact support' });
  await expect(support).toBeVisible();
  await expect(support).toHaveAttribute('href', 'mailto:support@latchkey.example');
});

test('no-admin-found says the email administers no team and leads back to sign in', async ({ page }) => {
  await page.goto('/#/login/no-admin-found');
  await expect(page.getByRole('heading', { name: 'No administrator access' })).toBeVisible();
  await expect(page.getByTestId('no-admin-message')).toHaveText(
    "This email is not an administrator of any team. Ask your team's super admin to add you.",
  );
  await shot(page, 'login-no-admin-found', 320);
  await shots(page, 'login-no-admin-found');
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page).toHaveURL(atRoute('/login'));
});

test('an email with an account but no team to administer is sent to no-admin-found by the server (admin_not_found)', async ({
  page,
}) => {
  // An account that administered Northwind once: added, then removed, by the super admin.
  const email = `former.${Date.now().toString(36)}@northwind.example`;
  const alex = { authorization: `Bearer ${await apiSignIn(ADMINS.alex.email, 'northwind')}` };
  expect((await apiPost('/organization/admin/user/add/', { email, scopes: ['admin'] }, alex)).status).toBe(200);
  expect((await apiPost('/organization/admin/user/remove/', { action: 'remove_admin', email }, alex)).status).toBe(200);
  await page.goto('/#/login');
  await emailInput(page).fill(email);
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/no-admin-found'));
  await expect(page.getByTestId('no-admin-message')).toHaveText(
    "This email is not an administrator of any team. Ask your team's super admin to add you.",
  );
});
