import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from '../support/a11y.ts';
import { ADMINS, atRoute, signIn } from '../support/latchkey.ts';
import { shot } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/**
 * Issue 17: a phone is a first-class screen. At 375 px every list shows each row as a card, with
 * the row's actions on screen (no sideways scrolling to reach them), its badges whole and long
 * emails wrapped inside the card.
 */
const PHONE = { width: 375, height: 740 };

/** No part of the page is wider than the phone's screen. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate<{ scroll: number; view: number }>(
    '({ scroll: document.documentElement.scrollWidth, view: document.documentElement.clientWidth })',
  );
  expect(widths.scroll, 'the page scrolls sideways').toBeLessThanOrEqual(widths.view);
}

/**
 * Every control of the card (its row actions: menu, buttons, the link that opens the row) lies
 * within the screen; its badges and text are not cut. `actions: false` for a list whose rows have
 * none (a member's devices).
 */
async function expectCardInReach(card: Locator, actions: boolean): Promise<void> {
  await expect(card).toBeVisible();
  const buttons = card.locator('button, a[href]');
  const count = await buttons.count();
  if (actions) expect(count, 'the card has row actions').toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const box = await buttons.nth(i).boundingBox();
    expect(box, 'a row action is laid out').not.toBeNull();
    if (!box) continue;
    expect(box.x, 'a row action starts on screen').toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, 'a row action ends on screen').toBeLessThanOrEqual(PHONE.width);
  }
  const cut = await card.evaluate((el) =>
    [...el.querySelectorAll('.mantine-Badge-label, a, p')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.textContent),
  );
  expect(cut, 'text cut inside the card').toEqual([]);
}

async function checkList(page: Page, name: string, rowTestId: string, { actions = true } = {}): Promise<void> {
  const table = page.locator('[data-layout="cards"]').first();
  await expect(table).toBeVisible();
  const card = page.getByTestId(rowTestId).first();
  await expectCardInReach(card, actions);
  await expectNoSidewaysScroll(page);
  await expectAccessible(page, `${name} at 375`);
  await shot(page, `phone-${name}`, PHONE.width);
}

test.use({ viewport: PHONE });
// Each screen is walked, scanned with axe and photographed: more than one screen's worth of time.
test.beforeEach(() => test.setTimeout(120_000));

test('at 375 px the people lists are cards with their actions in reach: users, devices, groups, administrators', async ({
  page,
}) => {
  await signIn(page, ADMINS.alex.email);

  await page.goto('/#/users');
  await expect(page.getByTestId('member-row').first()).toBeVisible();
  await checkList(page, 'users', 'member-row');
  // A member's long email wraps inside the card instead of pushing it wider.
  const member = page.getByTestId('member-row').first();
  await member.getByTestId('member-devices-link').click();
  await expect(page).toHaveURL(/#\/users\/.+/);
  await expect(page.getByTestId('device-row').or(page.getByTestId('devices-empty')).first()).toBeVisible();
  if (await page.getByTestId('device-row').count()) await checkList(page, 'devices', 'device-row', { actions: false });
  await expectNoSidewaysScroll(page);

  await page.goto('/#/groups');
  await expect(page.getByTestId('group-row').first()).toBeVisible();
  await checkList(page, 'groups', 'group-row');

  await page.goto('/#/settings/manage-administrators');
  await expect(page).toHaveURL(atRoute('/settings/manage-administrators'));
  await expect(page.getByTestId('admin-row').first()).toBeVisible();
  await checkList(page, 'administrators', 'admin-row');
});

test('at 375 px the Hub lists are cards with their actions in reach: sharing, security audit, recovery admins, policy history', async ({
  page,
}) => {
  await signIn(page, ADMINS.alex.email);

  await page.goto('/#/sharing');
  await expect(page.getByTestId('share-row').first()).toBeVisible();
  await checkList(page, 'sharing', 'share-row');

  await page.goto('/#/audit');
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await checkList(page, 'audit', 'audit-row');
  // No headers to click on a phone: the sort control above the cards sorts the same way.
  const rows = page.getByTestId('audit-row');
  const emails = async () => Promise.all((await rows.all()).map(async (r) => (await r.getAttribute('data-email')) ?? ''));
  const sortBy = page.getByTestId('audit-table-card-sort').getByLabel('Sort by');
  await expect(sortBy).toHaveValue('score');
  await sortBy.selectOption({ label: 'Member' });
  const direction = page.getByTestId('card-sort-direction');
  await expect(direction).toHaveAttribute('data-direction', 'ascending');
  await expect
    .poll(async () => {
      const now = await emails();
      return now.length > 1 && now.join() === [...now].sort().join();
    })
    .toBe(true);
  await direction.click();
  await expect(direction).toHaveAttribute('data-direction', 'descending');
  await expect
    .poll(async () => {
      const now = await emails();
      return now.length > 1 && now.join() === [...now].sort().reverse().join();
    })
    .toBe(true);

  await page.goto('/#/recovery/admins');
  await expect(page.getByTestId('recovery-admin-row').first()).toBeVisible();
  await checkList(page, 'recovery-admins', 'recovery-admin-row');
  // Each sub-page has its way back.
  await page.getByTestId('page-back').click();
  await expect(page).toHaveURL(atRoute('/recovery'));

  await page.goto('/#/policies/history');
  await expect(page.getByTestId('policy-history-row').first()).toBeVisible();
  await checkList(page, 'policy-history', 'policy-history-row');
  await page.getByTestId('page-back').click();
  await expect(page).toHaveURL(atRoute('/policies'));
});
