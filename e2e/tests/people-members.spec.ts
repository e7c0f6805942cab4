import type { Page } from '@playwright/test';
import { ADMINS, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

async function openUsers(page: Page, email: string = ADMINS.adam.email): Promise<void> {
  await signIn(page, email);
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByTestId('member-row').first()).toBeVisible();
}

test('members: pages of 10 by keyset, search goes back to page 1', async ({ page }) => {
  await openUsers(page);
  const rows = page.getByTestId('member-row');
  await expect(rows).toHaveCount(10);
  await expect(page.getByTestId('members-range')).toHaveText(/^1–10 of \d{3}$/);
  await shots(page, 'people-members');
  const first = await rows.first().getAttribute('data-email');
  // The one numbered pager: the pages after the next are counted but wait for their cursors.
  const pager = page.getByTestId('pager');
  await expect(pager.getByRole('button', { name: '3', exact: true })).toBeDisabled();
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(pager.getByRole('button', { name: '2', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('members-range')).toHaveText(/^11–20 of/);
  await expect(rows.first()).not.toHaveAttribute('data-email', first ?? '');
  await page.getByTestId('members-search').fill('eriksen');
  await expect(pager.getByRole('button', { name: '1', exact: true })).toHaveAttribute('aria-current', 'page');
  // The search is debounced: wait for its results rather than reading the previous page's rows.
  await expect
    .poll(async () => {
      const emails = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-email') ?? ''));
      return emails.length > 0 && emails.every((email) => email.includes('eriksen'));
    })
    .toBe(true);
  await page.getByTestId('members-search').fill('no-such-person-anywhere');
  await expect(page.getByTestId('members-empty')).toContainText('No members match');
});

for (const code of ['en', 'de']) {
  test(`members at 1280 px in ${code}: no badge in the table is cut (the free-text columns wrap instead)`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, ADMINS.adam.email);
    await page.evaluate(`localStorage.setItem('latchkey.language', '${code}')`);
    // Opened afresh: the language is read at start.
    await page.goto('/#/users');
    await page.reload();
    await expect(page.getByTestId('member-row')).toHaveCount(10);
    const cut = await page
      .getByTestId('member-row')
      .locator('.mantine-Badge-root, .mantine-Badge-label')
      .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    expect(cut, 'badges cut to an ellipsis').toEqual([]);
    // The whole table on screen: nothing scrolls sideways.
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      view: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.view);
  });
}

test('members: invite several from a CSV file, resend, then remove one with confirmation', async ({ page }) => {
  await openUsers(page);
  const stamp = Date.now().toString(36);
  const emails = [1, 2, 3].map((n) => `csv${n}.${stamp}@northwind.example`);
  await page.getByTestId('invite-open').click();
  const dialog = page.getByTestId('invite-dialog');
  // Nothing to invite yet: the button waits for emails.
  await expect(dialog.getByTestId('invite-submit')).toBeDisabled();
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByTestId('invite-csv').click();
  await (await chooser).setFiles({
    name: 'people.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`email,name\n${emails.map((e, i) => `${e},Person ${i}`).join('\n')}\n`),
  });
  await expect(dialog.getByTestId('invite-csv-summary')).toHaveText('people.csv: 3 emails');
  await shots(page, 'people-invite');
  await dialog.getByTestId('invite-submit').click();
  await expect(page.getByText('Invitations sent: 3')).toBeVisible();

  await page.getByTestId('members-search').fill(stamp);
  const rows = page.getByTestId('member-row');
  await expect(rows).toHaveCount(3);
  for (const text of await rows.allTextContents()) expect(text).toContain('Invited');

  const row = rows.filter({ hasText: emails[0] as string });
  await row.getByRole('button', { name: `Actions for ${emails[0]}` }).click();
  await page.getByRole('menuitem', { name: 'Resend invitation' }).click();
  await page.getByTestId('confirm-action').click();
  await expect(page.getByText(`The invitation was sent again to ${emails[0]}.`)).toBeVisible();

  await row.getByRole('button', { name: `Actions for ${emails[0]}` }).click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove from the team?' });
  await expect(confirm).toContainText(`${emails[0]} will be removed`);
  await shots(page, 'people-remove-confirm');
  await confirm.getByTestId('confirm-action').click();
  await expect(rows).toHaveCount(2);

  // Tidy up: the other two go too (bulk), freeing their licences for other tests.
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await page.getByTestId('bulk-bar').getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog', { name: 'Remove from the team?' }).getByTestId('confirm-action').click();
  await expect(page.getByTestId('members-empty')).toBeVisible();
});

test('members: assigning more licences than available is refused with a clear error', async ({ page }) => {
  await openUsers(page, ADMINS.alex.email);
  await page.getByTestId('filter-licence').click();
  await page.getByRole('checkbox', { name: 'No licence' }).check();
  await page.keyboard.press('Escape');
  const rows = page.getByTestId('member-row');
  // The previous page stays on screen until the filtered one arrives: wait for the filter's rows.
  await expect(rows.first()).toContainText('No licence');
  await expect(rows).toHaveCount(10);
  for (const text of await rows.allTextContents()) expect(text).toContain('No licence');
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await expect(page.getByTestId('bulk-bar')).toContainText('10 selected');
  await page.getByTestId('bulk-bar').getByRole('button', { name: 'Assign licence' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assign a licence?' });
  await dialog.getByTestId('confirm-action').click();
  await expect(dialog.getByTestId('modal-error')).toContainText('Not enough licences');
  await shots(page, 'people-licence-error');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows.first()).toContainText('No licence');
});

test('members: suspend and restore one member', async ({ page }) => {
  await openUsers(page);
  await page.getByTestId('filter-usage').click();
  await page.getByRole('checkbox', { name: 'Actively using app' }).check();
  await page.keyboard.press('Escape');
  await page.getByTestId('members-search').fill('zoe.');
  await expect(page.getByTestId('member-row').first()).toHaveAttribute('data-email', /^zoe\./);
  const email = (await page.getByTestId('member-row').first().getAttribute('data-email')) as string;
  const row = page.locator(`[data-testid="member-row"][data-email="${email}"]`);
  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Suspend' }).click();
  await page.getByTestId('confirm-action').click();
  await expect(row).toContainText('Suspended');
  await row.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Restore' }).click();
  await page.getByTestId('confirm-action').click();
  await expect(row).toContainText('Joined');
});
