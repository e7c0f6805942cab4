import { memberApp } from '../support/hub-client.ts';
import { ADMINS, atRoute, sidebarNav, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

test('sharing: revoke a share link, and the limits the Hub enforces', async ({ page }) => {
  // A member of this run only, so a retry on the same Hub starts clean.
  const run = Date.now().toString(36);
  const app = await memberApp(`yara.${run}@northwind.example`);
  const share = await app.call('/api/v1/client/shares/create/', {
    label: 'E2E build secrets',
    expires_in_hours: 24,
    view_limit: 5,
  });
  await app.call('/api/v1/client/shares/view/', { share_id: share.share_id });

  await signIn(page, ADMINS.alex.email);
  await sidebarNav(page).getByRole('link', { name: 'Sharing' }).click();
  await expect(page).toHaveURL(atRoute('/sharing'));
  await expect(page.getByTestId('share-row').first()).toBeVisible();
  await shots(page, 'hub-sharing');

  await page.getByLabel('Search by member email').fill(`yara.${run}`);
  const row = page.locator('[data-testid="share-row"][data-label="E2E build secrets"]');
  await expect(row).toContainText('1 of 5');
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name: 'Revoke' }).click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toContainText('E2E build secrets');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Share links revoked: 1.')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('share-empty')).toBeVisible();
  // The member's link no longer opens.
  expect(await app.status('/api/v1/client/shares/view/', { share_id: share.share_id })).toBe(410);

  // A shorter maximum expiry: the Hub refuses longer links from the apps (the new one is revoked after).
  const limits = page.getByTestId('sharing-limits');
  const expiry = limits.getByLabel('Maximum expiry');
  await expiry.fill('12');
  await limits.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  expect(await app.status('/api/v1/client/shares/create/', { expires_in_hours: 24, view_limit: 1 })).toBe(400);
  const allowed = await app.call('/api/v1/client/shares/create/', { expires_in_hours: 12, view_limit: 1 });
  expect(allowed.share_id).toBeTruthy();
  // Put the demo's limit back for the other specs.
  await expiry.fill('168');
  await limits.getByRole('button', { name: 'Save' }).click();
  await expect(limits.getByRole('button', { name: 'Save' })).toBeDisabled();
});
