import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { atRoute, continueButton, emailInput, openProfileMenu, passwordInput, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/** Demo admins of the account-security walk-through (apps/server/src/features/security/security.demo.ts). */
const TESS = 'tess@northwind.example';
const NADIA = 'nadia@northwind.example';

async function logOut(page: Page): Promise<void> {
  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(atRoute('/login'));
}

/** Email and password, up to the authenticator step. */
async function toAuthenticatorStep(page: Page): Promise<void> {
  await emailInput(page).fill(TESS);
  await continueButton(page).click();
  await passwordInput(page).fill('Latchkey-demo-2026');
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/verify-totp'));
}

/** A code the server has not seen yet: the next 30-second step (it accepts one step of drift). */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

test('authenticator: set up in account security, sign in with a real code, then a backup code that works once', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, TESS, { expectPath: '/dashboard' });
  await page.goto('/#/settings/account-security');
  const card = page.getByTestId('authenticator');
  await expect(card.getByText('Off', { exact: true })).toBeVisible();
  await shots(page, 'account-security');

  await card.getByRole('button', { name: 'Set up authenticator app' }).click();
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(card.getByRole('link', { name: 'Open in authenticator app' })).toHaveAttribute(
    'href',
    /^otpauth:\/\/totp\/Latchkey:tess%40northwind\.example\?/,
  );
  await shots(page, 'account-security-authenticator-setup');
  // A wrong code is refused in place.
  await card.getByLabel('Verification code').fill('000000');
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(card.getByRole('alert')).toHaveText('Invalid or expired code entered');
  await card.getByLabel('Verification code').fill(await generate({ secret }));
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('backup-codes').locator('code')).toHaveCount(10);
  const codes = (await page.getByTestId('backup-codes').locator('code').allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  await shots(page, 'account-security-backup-codes');
  await card.getByRole('button', { name: 'Done' }).click();
  await expect(card.getByText('On', { exact: true })).toBeVisible();
  await expect(page.getByTestId('codes-left')).toHaveText('Backup codes left: 10');
  // Codes-only sign-in is not offered while the authenticator is on.
  await expect(page.getByTestId('sign-in-method').getByRole('radio', { name: 'Emailed code only' })).toBeDisabled();

  // Sign in again: the password step goes to the authenticator, not to an emailed code.
  await logOut(page);
  await toAuthenticatorStep(page);
  await expect(page.getByRole('heading', { name: 'Enter the code from your authenticator app' })).toBeVisible();
  await shots(page, 'login-verify-totp');
  const code = await nextCode(secret);
  for (const [i, digit] of [...code].entries()) await page.getByLabel(`Digit ${i + 1} of 6`, { exact: true }).fill(digit);
  await expect(page).toHaveURL(atRoute('/dashboard'));

  // The same code again (a replay) is refused.
  await logOut(page);
  await toAuthenticatorStep(page);
  for (const [i, digit] of [...code].entries()) await page.getByLabel(`Digit ${i + 1} of 6`, { exact: true }).fill(digit);
  await expect(page.getByTestId('code-error')).toHaveText('Invalid or expired code entered');

  // A backup code instead: required, trimmed, accepted once.
  await page.getByRole('link', { name: 'Use a backup code instead' }).click();
  await expect(page).toHaveURL(atRoute('/login/verify-backup-code'));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('This field is required')).toBeVisible();
  await shots(page, 'login-verify-backup-code');
  await page.getByLabel('Backup code').fill(`  ${codes[0]}  `);
  // Spec §7: the backup code goes to verify/otp as recovery_code.
  const sent = page.waitForRequest((r) => r.url().includes('/auth/verify/otp/'));
  await page.getByRole('button', { name: 'Verify' }).click();
  expect((await sent).postDataJSON()).toMatchObject({ recovery_code: codes[0] });
  await expect(page).toHaveURL(atRoute('/dashboard'));

  await logOut(page);
  await toAuthenticatorStep(page);
  await page.getByRole('link', { name: 'Use a backup code instead' }).click();
  await page.getByLabel('Backup code').fill(codes[0] as string);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Invalid backup code')).toBeVisible();
  await expect(page).toHaveURL(atRoute('/login/verify-backup-code'));
  // Back to the authenticator link, and the guard: a reload loses the password, so back to /login.
  await page.getByRole('link', { name: 'Use your authenticator app instead' }).click();
  await expect(page).toHaveURL(atRoute('/login/verify-totp'));
  await page.reload();
  await expect(page).toHaveURL(atRoute('/login'));
});

test('an admin without a password sets one in account security, then changes it', async ({ page }) => {
  await page.goto('/#/login');
  await emailInput(page).fill(NADIA);
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/verify-otp'));
  const { latestCode } = await import('../support/mail.ts');
  const code = await latestCode(NADIA);
  for (const [i, digit] of [...code].entries()) await page.getByLabel(`Digit ${i + 1} of 6`, { exact: true }).fill(digit);
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await page.goto('/#/settings/account-security');

  const set = page.getByTestId('set-password');
  await set.getByRole('button', { name: 'Set a password' }).click();
  await expect(set.getByText('Please enter a password')).toBeVisible();
  await set.getByLabel('New password', { exact: true }).fill('short');
  await set.getByLabel('Retype new password').fill('different');
  await set.getByRole('button', { name: 'Set a password' }).click();
  await expect(set.getByText('The passwords do not match')).toBeVisible();
  await set.getByLabel('Retype new password').fill('short');
  await set.getByRole('button', { name: 'Set a password' }).click();
  await expect(set.getByText('Use at least 12 characters', { exact: true })).toBeVisible();
  await set.getByLabel('New password', { exact: true }).fill('nadia-first-password');
  await set.getByLabel('Retype new password').fill('nadia-first-password');
  await set.getByRole('button', { name: 'Set a password' }).click();
  await expect(page.getByText('Password set', { exact: true })).toBeVisible();

  // Now a password exists: the card changes it, checking the current one first.
  const change = page.getByTestId('change-password');
  await change.getByLabel('Current password').fill('wrong-password');
  await change.getByLabel('New password', { exact: true }).fill('nadia-second-password');
  await change.getByLabel('Retype new password').fill('nadia-second-password');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change.getByRole('alert')).toHaveText('Invalid password');
  // The server's invalid_password_validation: its description is shown (spec §8), nothing changes.
  await change.getByLabel('Current password').fill('nadia-first-password');
  await change.getByLabel('New password', { exact: true }).fill('nadia-first-password');
  await change.getByLabel('Retype new password').fill('nadia-first-password');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change.getByRole('alert')).toHaveText('The new password must differ from the current one.');
  await change.getByLabel('New password', { exact: true }).fill('nadia-second-password');
  await change.getByLabel('Retype new password').fill('nadia-second-password');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed. Your other sessions have been signed out.')).toBeVisible();

  // And sign in with password from now on.
  const method = page.getByTestId('sign-in-method');
  await method.getByRole('radio', { name: 'Password, then a second step' }).check();
  await method.getByLabel('Current password').fill('nadia-second-password');
  await method.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Sign-in method updated')).toBeVisible();
  await logOut(page);
  await emailInput(page).fill(NADIA);
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
});
