import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { apiPost, apiSignIn } from '../support/api.ts';
import { ADMINS, atRoute, enterCode, sidebarNav, signIn } from '../support/latchkey.ts';
import { latestCode, mailCursor, messagesTo } from '../support/mail.ts';
import { shot } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// Saved searches of the event log, between two super admins of Northwind: a shared one opens for
// the other by its link and from the list; a private one stays its author's until they share it.

/** A second super admin of Northwind, made for this run: added by Alex, signed in by the mailed link. */
async function secondSuperAdmin(browser: Browser, alexToken: string): Promise<{ page: Page; email: string }> {
  const email = `saved-${randomUUID().slice(0, 8)}@northwind.example`;
  const after = await mailCursor();
  const added = await apiPost(
    '/organization/admin/user/add/',
    { email, scopes: ['super_admin'] },
    { authorization: `Bearer ${alexToken}` },
  );
  expect(added.status).toBe(200);
  let invitation = '';
  await expect(async () => {
    invitation = (await messagesTo(email, after)).at(-1)?.text ?? '';
    expect(invitation).toContain('#/email-verification/');
  }).toPass();
  const link = /#\/email-verification\/\S+/.exec(invitation)?.[0] ?? '';
  const page = await (await browser.newContext({ baseURL: test.info().project.use.baseURL ?? '' })).newPage();
  await page.goto(`/${link}`);
  const codeAfter = await mailCursor();
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await enterCode(page, await latestCode(email, { after: codeAfter }));
  await page.getByLabel('New password', { exact: true }).fill('saved-searches-password');
  await page.getByLabel('Retype new password').fill('saved-searches-password');
  await page.getByRole('button', { name: 'Set a password' }).click();
  await expect(page).toHaveURL(atRoute('/dashboard'));
  return { page, email };
}

/** Saves the log's current filters under `name`, private or shared, through the control's dialog. */
async function saveCurrent(page: Page, name: string, shared: boolean, screenshots = false) {
  await page.getByTestId('saved-searches-button').click();
  await page.getByTestId('saved-search-save').click();
  const dialog = page.getByTestId('save-search-dialog');
  await dialog.getByTestId('save-search-name').fill(name);
  if (shared) await dialog.getByTestId('save-search-shared').check();
  if (screenshots) for (const width of [1280, 375, 320]) await shot(page, 'eventlogs-save-search-dialog', width);
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByTestId('save-search-submit').click();
  await expect(page.getByText(`“${name}” saved`)).toBeVisible();
  await expect(page.getByTestId('saved-searches-button')).toHaveText(name);
}

const item = (page: Page, name: string) => page.locator(`[data-testid="saved-search-item"][data-name="${name}"]`);

test('saved searches: a super admin saves a filtered log as shared; another opens it by its link and the list, never the private one', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36);
  const shared = `Groups created ${run}`;
  const mine = `Alex only ${run}`;
  const alexToken = await apiSignIn(ADMINS.alex.email, 'northwind');
  const other = await secondSuperAdmin(browser, alexToken);
  try {
    await signIn(page, ADMINS.alex.email);
    await page.goto('/#/eventlogs');
    await expect(page.getByTestId('saved-searches-button')).toHaveText('Saved searches');

    // The filters live in the address.
    await page.getByTestId('eventlogs-search').fill('group.created');
    await expect(page).toHaveURL(/[?&]q=group\.created/);
    await saveCurrent(page, shared, true, true);
    await expect(page).toHaveURL(/[?&]saved=[0-9a-f-]{36}/);

    await page.getByTestId('eventlogs-search').fill('auth.sign_in');
    await saveCurrent(page, mine, false);
    await page.getByTestId('saved-searches-button').click();
    await expect(item(page, shared)).toBeVisible();
    await expect(item(page, mine)).toBeVisible();
    for (const width of [1280, 375, 320]) {
      await page.setViewportSize({ width, height: width > 600 ? 800 : 740 });
      if (!(await item(page, shared).isVisible())) await page.getByTestId('saved-searches-button').click();
      await shot(page, 'eventlogs-saved-searches-menu', width);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    if (!(await item(page, shared).isVisible())) await page.getByTestId('saved-searches-button').click();
    const sharedLink = (await item(page, shared).getAttribute('data-link')) ?? '';
    const privateLink = (await item(page, mine).getAttribute('data-link')) ?? '';
    expect(sharedLink).toMatch(/\?saved=[0-9a-f-]{36}#\/eventlogs$/);
    await page.keyboard.press('Escape');

    // The other super admin follows the link: the search's filters apply, its name is shown.
    await other.page.goto(sharedLink);
    await expect(other.page.getByTestId('saved-searches-button')).toHaveText(shared);
    await expect(other.page.getByTestId('eventlogs-search')).toHaveValue('group.created');
    await expect(other.page).toHaveURL(/[?&]q=group\.created/);
    // The list holds the shared search, not Alex's private one.
    await other.page.getByTestId('saved-searches-button').click();
    await expect(item(other.page, shared)).toBeVisible();
    await expect(item(other.page, mine)).toHaveCount(0);
    await other.page.keyboard.press('Escape');
    // Nor does the private one's link open it.
    await other.page.goto(privateLink);
    await expect(other.page.getByText('This saved search no longer exists or is not shared with you.')).toBeVisible();
    await expect(other.page.getByTestId('saved-searches-button')).toHaveText('Saved searches');

    // From the list: cleared filters, then the shared search chosen again.
    await other.page.getByTestId('saved-searches-button').click();
    await item(other.page, shared).click();
    await expect(other.page.getByTestId('eventlogs-search')).toHaveValue('group.created');
    // Any super admin manages a shared search: the other one deletes it.
    await other.page.getByTestId('saved-searches-button').click();
    await other.page.getByTestId('saved-search-delete').click();
    await other.page.getByTestId('confirm-action').click();
    await expect(other.page.getByText(`“${shared}” deleted`)).toBeVisible();
    await page.reload();
    await page.getByTestId('saved-searches-button').click();
    await expect(item(page, shared)).toHaveCount(0);
    await expect(item(page, mine)).toBeVisible();
    await page.keyboard.press('Escape');
    // A reload keeps the filters and the search shown; another screen does not inherit them.
    await expect(page.getByTestId('eventlogs-search')).toHaveValue('auth.sign_in');
    await expect(page.getByTestId('saved-searches-button')).toHaveText(mine);

    // Its author shares the private search after saving it: the other super admin sees it then, and
    // may manage it but not take it from the team; made private again, it is gone from their list.
    await page.getByTestId('saved-searches-button').click();
    await expect(page.getByTestId('saved-search-sharing')).toHaveText('Share with the team');
    for (const width of [1280, 375, 320]) {
      await page.setViewportSize({ width, height: width > 600 ? 800 : 740 });
      if (!(await page.getByTestId('saved-search-sharing').isVisible())) await page.getByTestId('saved-searches-button').click();
      await shot(page, 'eventlogs-saved-search-share-switch', width);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    if (!(await page.getByTestId('saved-search-sharing').isVisible())) await page.getByTestId('saved-searches-button').click();
    await page.getByTestId('saved-search-sharing').click();
    await expect(page.getByText(`“${mine}” is now shared with the team`)).toBeVisible();
    await other.page.reload();
    // The reloaded log shows the filters its address holds before another search is chosen.
    await expect(other.page.getByTestId('eventlogs-search')).toHaveValue('group.created');
    await other.page.getByTestId('saved-searches-button').click();
    await item(other.page, mine).click();
    await expect(other.page.getByTestId('eventlogs-search')).toHaveValue('auth.sign_in');
    await other.page.getByTestId('saved-searches-button').click();
    await expect(other.page.getByTestId('saved-search-rename')).toBeVisible();
    await expect(other.page.getByTestId('saved-search-sharing')).toHaveCount(0);
    await other.page.keyboard.press('Escape');
    await page.getByTestId('saved-searches-button').click();
    await expect(page.getByTestId('saved-search-sharing')).toHaveText('Make private');
    await page.getByTestId('saved-search-sharing').click();
    await expect(page.getByText(`“${mine}” is now private`)).toBeVisible();
    await other.page.reload();
    await other.page.getByTestId('saved-searches-button').click();
    await expect(item(other.page, mine)).toHaveCount(0);
    await other.page.keyboard.press('Escape');

    await sidebarNav(page).getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(atRoute('/users'));
    await expect(page).not.toHaveURL(/[?&](q|saved)=/);
  } finally {
    await other.page.context().close();
    await apiPost(
      '/organization/admin/user/remove/',
      { action: 'remove_admin', email: other.email },
      { authorization: `Bearer ${alexToken}` },
    );
  }
});
