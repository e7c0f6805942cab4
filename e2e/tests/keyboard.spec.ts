import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { ADMINS, atRoute, DEMO_PASSWORD, signIn } from '../support/latchkey.ts';
import { latestCode, mailCursor, withMailLock } from '../support/mail.ts';
import { expect, test } from '../support/test.ts';

/**
 * Issue 17: every flow works by keyboard alone. No click, no fill: the test moves with Tab (and
 * Shift+Tab), types, and presses Enter, Escape and the arrows, as an admin without a mouse does.
 */

const isFocused = (locator: Locator) => locator.evaluate((el) => el === el.ownerDocument.activeElement).catch(() => false);

/** Presses Tab until `target` has the focus (at most `max` times), as a keyboard user walks the page. */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

/** The element that has the focus is inside `container`. */
async function expectFocusWithin(container: Locator): Promise<void> {
  await expect.poll(() => container.evaluate((el) => el.contains(el.ownerDocument.activeElement))).toBe(true);
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Console sections' });

test('keyboard only: sign in, invite a member, edit a policy and answer the unsaved-changes dialog', async ({ page }) => {
  // A whole working session typed key by key: sign-in, an invitation, a removal, a policy edit.
  test.setTimeout(180_000);
  const email = ADMINS.adam.email;
  const invitee = `kb.${Date.now().toString(36)}@northwind.example`;

  // Sign in: email, password, the emailed code — typed, submitted with Enter.
  await page.goto('/#/login');
  await expect(page).toHaveTitle('Sign in · Latchkey');
  await tabTo(page, page.getByLabel('Work email'));
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  await withMailLock(email, async () => {
    const after = await mailCursor();
    await tabTo(page, page.getByLabel('Password', { exact: true }));
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(atRoute('/login/verify-otp'));
    const code = await latestCode(email, { after });
    await tabTo(page, page.getByLabel('Digit 1 of 6', { exact: true }));
    // Each digit moves the focus to the next box; the last one submits.
    await page.keyboard.type(code);
    await expect(page).toHaveURL(atRoute('/dashboard'));
  });
  await expect(page).toHaveTitle('Dashboard · Latchkey');

  // Invite a member: the dialog takes the focus, and gives it back to the button that opened it.
  await tabTo(page, sidebar(page).getByRole('link', { name: 'Users' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(atRoute('/users'));
  await expect(page).toHaveTitle('Users · Latchkey');
  const open = page.getByTestId('invite-open');
  await tabTo(page, open);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Invite members' });
  await expect(dialog).toBeVisible();
  await expectFocusWithin(dialog);
  await expect(page.getByTestId('invite-email')).toBeFocused();
  // An address that is not one is not counted, and Send waits.
  await page.keyboard.type('not-an-email');
  await expect(page.getByTestId('invite-submit')).toBeDisabled();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(invitee);
  await expect(page.getByTestId('invite-submit')).toHaveText('Send invitations (1)');
  await expectAccessible(page, 'invite dialog');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Invitations sent: 1')).toBeVisible();
  // The toast sits below the top bar, not over the profile menu's avatar.
  const toastBox = await page.locator('.mantine-Notification-root').first().boundingBox();
  const avatarBox = await page.getByTestId('profile-menu').boundingBox();
  expect(toastBox && avatarBox && toastBox.y >= avatarBox.y + avatarBox.height).toBe(true);
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();

  // The invited member is in the list; remove them again with the row's menu and its confirmation.
  await tabTo(page, page.getByTestId('members-search'));
  await page.keyboard.type(invitee);
  const actions = page.getByRole('button', { name: `Actions for ${invitee}` });
  await expect(actions).toBeVisible();
  // The invited person: the email once (no name yet), and no red "never used app" badge.
  const invitedRow = page.locator(`[data-testid="member-row"][data-email="${invitee}"]`);
  await expect(invitedRow.getByText(invitee, { exact: true })).toHaveCount(1);
  await expect(invitedRow.getByText('Never used app')).toHaveCount(0);
  await tabTo(page, actions);
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  const remove = menu.getByRole('menuitem', { name: 'Remove' });
  for (let i = 0; i < 10 && !(await isFocused(remove)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Remove from the team?' });
  await expectFocusWithin(confirm);
  await tabTo(page, confirm.getByTestId('confirm-action'), 10);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('members-empty')).toBeVisible();

  // Edit a policy, then leave: the unsaved-changes dialog takes the focus and is answered by keyboard.
  await tabTo(page, sidebar(page).getByRole('link', { name: 'Policy' }), 120);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(atRoute('/policies'));
  await expect(page.getByText('No unsaved changes.')).toBeVisible();
  const minLength = page.getByTestId('policy-input-mp.min_length');
  await tabTo(page, minLength, 120);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('20');
  await expect(page.getByText('No unsaved changes.')).toBeHidden();
  // Back up to the sidebar (it comes before the page in the tab order).
  const users = sidebar(page).getByRole('link', { name: 'Users' });
  for (let i = 0; i < 150 && !(await isFocused(users)); i++) await page.keyboard.press('Shift+Tab');
  await expect(users).toBeFocused();
  await page.keyboard.press('Enter');
  const unsaved = page.getByRole('dialog', { name: 'Unsaved Changes' });
  await expect(unsaved).toBeVisible();
  await expectFocusWithin(unsaved);
  await expectAccessible(page, 'unsaved-changes dialog');
  // Escape cancels: still on the policy, the change kept, the focus back where it was.
  await page.keyboard.press('Escape');
  await expect(unsaved).toBeHidden();
  await expect(page).toHaveURL(atRoute('/policies'));
  await expect(minLength).toHaveValue('20');
  await expect(users).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(unsaved).toBeVisible();
  await tabTo(page, unsaved.getByRole('button', { name: 'Discard changes' }), 10);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(atRoute('/users'));
});

test('phone: the closed sidebar is out of the tab order, the open one is in it', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/#/login');
  await expect(page.getByLabel('Work email')).toBeVisible();
  await signIn(page, ADMINS.alex.email);
  const links = sidebar(page).getByRole('link');
  // Walk the whole page by Tab: no sidebar link ever takes the focus while the drawer is closed.
  const focusedInSidebar: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const inSidebar = await page.evaluate<string | null>(
      `document.activeElement?.closest('[data-testid="sidebar"]')?.textContent ?? null`,
    );
    if (inSidebar) focusedInSidebar.push(inSidebar);
  }
  expect(focusedInSidebar).toEqual([]);
  await expect(page.getByTestId('sidebar')).toHaveAttribute('inert', '');

  const toggle = page.getByTestId('sidebar-toggle');
  await tabTo(page, toggle);
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('sidebar')).not.toHaveAttribute('inert', '');
  await tabTo(page, links.filter({ hasText: 'Groups' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(atRoute('/groups'));
  await expect(page).toHaveTitle('Groups · Latchkey');
  await expect(page.getByTestId('sidebar')).toHaveAttribute('inert', '');
});

test('keyboard only: every dialog gives the focus back to what opened it (groups, a row menu, administrators)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, ADMINS.alex.email);

  // Create group: Escape closes it, the focus is back on its button.
  await page.goto('/#/groups');
  const rows = page.getByTestId('group-row');
  await expect(rows.first()).toBeVisible();
  const create = page.getByTestId('group-create-open');
  await tabTo(page, create, 120);
  await page.keyboard.press('Enter');
  const createDialog = page.getByRole('dialog', { name: 'Create a group' });
  await expectFocusWithin(createDialog);
  await page.keyboard.press('Escape');
  await expect(createDialog).toBeHidden();
  await expect(create).toBeFocused();

  // A dialog opened from a row's menu: the focus goes back to the row's menu button.
  const first = (await rows.first().getAttribute('data-name')) ?? '';
  const actions = page.getByRole('button', { name: `Actions for ${first}` });
  await tabTo(page, actions, 120);
  await page.keyboard.press('Enter');
  const priority = page.getByRole('menuitem', { name: 'Set priority' });
  for (let i = 0; i < 10 && !(await isFocused(priority)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const priorityDialog = page.getByRole('dialog');
  await expectFocusWithin(priorityDialog);
  await page.keyboard.press('Escape');
  await expect(priorityDialog).toBeHidden();
  await expect(actions).toBeFocused();

  // Add administrator: Cancel by keyboard, the focus is back on its button.
  await page.goto('/#/settings/manage-administrators');
  const add = page.getByTestId('admin-add-open');
  await expect(add).toBeVisible();
  await tabTo(page, add, 120);
  await page.keyboard.press('Enter');
  const addDialog = page.getByTestId('admin-add-dialog');
  await expectFocusWithin(page.getByRole('dialog'));
  await tabTo(page, addDialog.getByRole('button', { name: 'Cancel' }), 20);
  await page.keyboard.press('Enter');
  await expect(addDialog).toBeHidden();
  await expect(add).toBeFocused();

  // The language dialog from the profile menu: the focus goes back to the avatar, whose ring is round like it.
  const avatar = page.getByTestId('profile-menu');
  await tabTo(page, avatar, 120);
  await page.keyboard.press('Enter');
  const languages = page.getByRole('menuitem', { name: 'Languages' });
  for (let i = 0; i < 10 && !(await isFocused(languages)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const languageDialog = page.getByRole('dialog');
  await expectFocusWithin(languageDialog);
  await page.keyboard.press('Escape');
  await expect(languageDialog).toBeHidden();
  await expect(avatar).toBeFocused();
  const ring = await avatar.evaluate((el) => {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    const radius = style.borderTopLeftRadius;
    const px = radius.endsWith('%') ? (Number.parseFloat(radius) / 100) * box.width : Number.parseFloat(radius);
    return { radius: px, width: box.width, height: box.height, outline: style.outlineStyle };
  });
  expect(ring.outline, 'the focus ring shows').not.toBe('none');
  expect(ring.width, 'the button is the avatar: a square box').toBeCloseTo(ring.height, 0);
  expect(ring.radius, 'a round ring, not a square one').toBeGreaterThanOrEqual(ring.width / 2 - 0.5);
});
