import { SERVER_URL } from '../support/env.ts';
import { atRoute, continueButton, emailInput, openProfileMenu, passwordInput, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/** Adds a security key (apps/server/src/features/security/security.demo.ts). */
const KEIKO = 'keiko@northwind.example';
// WebAuthn refuses an IP address as the relying party: this test uses the console at localhost.
const CONSOLE = SERVER_URL.replace('127.0.0.1', 'localhost');

test('security key: added, renamed, removed (password asked) and added again in account security with Chromium’s virtual authenticator, then signs in on /login/u2f', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'usb',
      hasResidentKey: false,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await page.goto(`${CONSOLE}/#/login`);
  await signIn(page, KEIKO, { open: false, expectPath: '/dashboard' });
  await page.goto(`${CONSOLE}/#/settings/account-security`);
  const card = page.getByTestId('security-keys');
  await expect(card.getByTestId('security-keys-count')).toHaveText('Security keys added: 0');
  await expect(card.getByTestId('security-keys-empty')).toHaveText('No security keys yet.');
  await card.getByRole('button', { name: 'Add security key' }).click();
  await expect(page.getByText('Security key added', { exact: true })).toBeVisible();
  await expect(card.getByTestId('security-keys-count')).toHaveText('Security keys added: 1');
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);

  // Rename: a blank name is refused in the dialog; the new name shows in the list.
  const row = card.getByTestId('security-key');
  await expect(row.getByTestId('security-key-name')).toHaveText('Security key');
  await expect(row).toContainText('Never used');
  await row.getByRole('button', { name: 'Rename: Security key' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename security key' });
  await rename.getByLabel('Name').fill('  ');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename.getByText('This field is required')).toBeVisible();
  await rename.getByLabel('Name').fill('Desk YubiKey');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Security key renamed', { exact: true })).toBeVisible();
  await expect(rename).toBeHidden();
  await expect(row.getByTestId('security-key-name')).toHaveText('Desk YubiKey');
  await shots(page, 'account-security-keys');

  // Remove: the password is asked; a wrong one is refused in the dialog, the right one removes the key.
  await row.getByRole('button', { name: 'Remove: Desk YubiKey' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove security key?' });
  await expect(remove).toContainText('Desk YubiKey will no longer be asked for when you sign in.');
  await remove.getByLabel('Current password').fill('not-my-password');
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(remove.getByRole('alert')).toHaveText('Invalid password');
  await shots(page, 'account-security-key-remove');
  await remove.getByLabel('Current password').fill('Latchkey-demo-2026');
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Security key removed', { exact: true })).toBeVisible();
  await expect(card.getByTestId('security-keys-count')).toHaveText('Security keys added: 0');
  await expect(card.getByTestId('security-keys-empty')).toBeVisible();

  // Added again, it is the key the next sign-in asks for.
  await card.getByRole('button', { name: 'Add security key' }).click();
  await expect(card.getByTestId('security-keys-count')).toHaveText('Security keys added: 1');
  const counted = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  const before = new Map(counted.credentials.map((c) => [c.credentialId, c.signCount]));

  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(atRoute('/login'));
  await emailInput(page).fill(KEIKO);
  await continueButton(page).click();
  await passwordInput(page).fill('Latchkey-demo-2026');
  await continueButton(page).click();
  // The password step sends no email code: the key answers the challenge on /login/u2f.
  await expect(page).toHaveURL(atRoute('/dashboard'));
  // The browser still holds the removed key's credential; only the one added again was used.
  const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(after.credentials).toHaveLength(2);
  const used = after.credentials.filter((c) => c.signCount > (before.get(c.credentialId) ?? 0));
  expect(used).toHaveLength(1);

  // Without the key (removed from the browser), the step says so and offers to try again.
  await openProfileMenu(page).then((m) => m.getByRole('menuitem', { name: 'Log out' }).click());
  await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'usb',
      hasResidentKey: false,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await emailInput(page).fill(KEIKO);
  await continueButton(page).click();
  await passwordInput(page).fill('Latchkey-demo-2026');
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/u2f'));
  await expect(page.getByRole('alert')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Use security key' })).toBeVisible();
  await shots(page, 'login-u2f');
});
