import { ADMINS, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

test('administrators: add one with scopes, then remove them', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  await page.goto('/#/settings/manage-administrators');
  const rows = page.getByTestId('admin-row');
  await expect(rows.filter({ hasText: ADMINS.alex.email })).toContainText('Super admin');
  await expect(page.getByTestId('admins-count')).toHaveText(/administrators · seats in blocks of ten: \d*0$/);
  await shots(page, 'people-admins');

  const email = `helper.${Date.now().toString(36)}@northwind.example`;
  await page.getByTestId('admin-add-open').click();
  const dialog = page.getByTestId('admin-add-dialog');
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByRole('checkbox', { name: 'Integrator' }).check();
  await shots(page, 'people-admin-add');
  await dialog.getByRole('button', { name: 'Add administrator' }).click();
  await expect(page.getByText(`${email} is now an administrator.`)).toBeVisible();
  const row = page.locator(`[data-testid="admin-row"][data-email="${email}"]`);
  await expect(row).toContainText('Admin');
  await expect(row).toContainText('Integrator');

  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Remove administrator' }).click();
  await page.getByRole('dialog', { name: 'Remove this administrator?' }).getByTestId('confirm-action').click();
  await expect(row).toHaveCount(0);

  // Nobody resets their own authentication from here (account security is the place); removing the
  // last super admin is refused by the server (apps/server/src/features/admins/admins.test.ts).
  const me = page.locator(`[data-testid="admin-row"][data-email="${ADMINS.alex.email}"]`);
  await me.getByRole('button', { name: `Actions for ${ADMINS.alex.email}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Remove administrator' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Reset authentication' })).toHaveCount(0);
  await page.keyboard.press('Escape');
});
