import { apiPost, apiSignIn } from '../support/api.ts';
import { ADMINS, signIn } from '../support/latchkey.ts';
import { mailCursor, messagesTo } from '../support/mail.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

test('administrators: add one with scopes, then remove them', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  await page.goto('/#/settings/manage-administrators');
  const rows = page.getByTestId('admin-row');
  await expect(rows.filter({ hasText: ADMINS.alex.email })).toContainText('Super admin');
  await expect(page.getByTestId('admins-count')).toHaveText(
    /administrators · billed as \d*0 seats \(administrator seats are counted in blocks of ten\)$/,
  );
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

test('administrators: a person who already has an account is invited, shown as pending, and accepts by the mailed link', async ({
  page,
}) => {
  test.setTimeout(60_000);
  // An account that exists but administers nothing here: added once, then removed.
  const email = `returning.${Date.now().toString(36)}@northwind.example`;
  const alex = await apiSignIn(ADMINS.alex.email, 'northwind');
  const auth = { authorization: `Bearer ${alex}` };
  expect((await apiPost('/organization/admin/user/add/', { email, scopes: ['admin'] }, auth)).status).toBe(200);
  expect((await apiPost('/organization/admin/user/remove/', { action: 'remove_admin', email }, auth)).status).toBe(200);

  await signIn(page, ADMINS.alex.email);
  await page.goto('/#/settings/manage-administrators');
  const after = await mailCursor();
  await page.getByTestId('admin-add-open').click();
  const dialog = page.getByTestId('admin-add-dialog');
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByRole('button', { name: 'Add administrator' }).click();
  await expect(page.getByText(`${email} already has an account: an invitation was emailed.`)).toBeVisible();
  const row = page.locator(`[data-testid="admin-row"][data-email="${email}"]`);
  await expect(row).toHaveAttribute('data-status', 'pending');
  await expect(row.getByTestId('admin-pending')).toHaveText('Invitation pending');
  await shots(page, 'people-admins-pending');
  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Cancel invitation' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Reset authentication' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  let mail = '';
  await expect(async () => {
    mail = (await messagesTo(email, after)).at(-1)?.text ?? '';
    expect(mail).toContain('#/admin-invitation/');
  }).toPass();
  const link = /#\/admin-invitation\/\S+/.exec(mail)?.[0] ?? '';
  const invitee = await page.context().browser()?.newContext();
  const other = await invitee?.newPage();
  if (!other || !invitee) throw new Error('no second browser context');
  await other.goto(`${new URL(page.url()).origin}/${link}`);
  await expect(other.getByTestId('admin-invitation-ready')).toContainText(`administer Northwind Traders as ${email}`);
  await other.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(other.getByTestId('admin-invitation-accepted')).toContainText('You now administer Northwind Traders.');
  await other.reload();
  await expect(other.getByTestId('admin-invitation-invalid')).toBeVisible();
  await invitee.close();

  await page.reload();
  await expect(row).toHaveAttribute('data-status', 'active');
  await expect(row.getByTestId('admin-pending')).toHaveCount(0);
});
