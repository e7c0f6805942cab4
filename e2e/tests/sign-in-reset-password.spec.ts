import { atRoute, continueButton, emailInput, passwordAndCode, passwordInput } from '../support/latchkey.ts';
import { mailCursor, messagesTo } from '../support/mail.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/** Forgets her password (apps/server/src/features/security/security.demo.ts). */
const REESE = 'reese@northwind.example';

async function resetLink(after: number): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = (await messagesTo(REESE, after)).at(-1)?.text ?? '';
    const link = /(http:\/\/\S+#\/reset-password\?password_request=\S+)/.exec(text)?.[1];
    if (link) return link;
    if (Date.now() > deadline) throw new Error('no reset link in the mailbox');
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('forgot password: the emailed link sets a new password once; a used or broken link shows the invalid state', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('/#/login');
  await emailInput(page).fill(REESE);
  await continueButton(page).click();
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(atRoute('/login/forgot-password'));
  await expect(page.getByLabel('Work email')).toHaveValue(REESE);
  await shots(page, 'login-forgot-password');
  const after = await mailCursor();
  await page.getByRole('button', { name: 'Email me a reset link' }).click();
  await expect(page.getByTestId('reset-link-sent')).toContainText(REESE);

  const link = await resetLink(after);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  await expect(page.getByText(`For ${REESE}`)).toBeVisible();
  // The token leaves the address bar once read.
  await expect(page).toHaveURL(atRoute('/reset-password'));
  await shots(page, 'reset-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Please enter a password')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('reese-new-password');
  await page.getByLabel('Retype new password').fill('reese-other-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('The passwords do not match')).toBeVisible();
  await page.getByLabel('Retype new password').fill('reese-new-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByTestId('reset-done')).toContainText('Your password has been changed');
  await shots(page, 'reset-password-done');

  // The same link again (as from the email, in a fresh page): invalid or expired.
  await page.goto('about:blank');
  await page.goto(link);
  await expect(page.getByTestId('reset-invalid')).toContainText('Invalid or expired link');
  await shots(page, 'reset-password-invalid');
  await page.goto('/#/reset-password?password_request=not-a-real-link-token-at-all');
  await expect(page.getByTestId('reset-invalid')).toBeVisible();

  // The old password no longer works; the new one does, with its emailed code.
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await emailInput(page).fill(REESE);
  await continueButton(page).click();
  await passwordInput(page).fill('Latchkey-demo-2026');
  await continueButton(page).click();
  await expect(page.getByText('Invalid password')).toBeVisible();
  await passwordAndCode(page, REESE, { password: 'reese-new-password', expectPath: '/dashboard' });
});
