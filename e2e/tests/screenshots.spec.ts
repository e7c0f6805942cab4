import { ADMINS, openProfileMenu, signIn } from '../support/latchkey.ts';
import { shot } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/** Kept after the run (test-results/ is ignored by git), unlike the per-test output folders. */
const WIDTHS = [1280, 375] as const;

test('screenshots of the login page, dashboard and profile menu at 1280 and 375 px', async ({ page }) => {
  await page.goto('/#/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  for (const width of WIDTHS) await shot(page, 'login', width);

  await signIn(page, ADMINS.alex.email);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 740 });
    await expect(page.getByTestId('team-name')).toBeVisible();
    await expect(page.getByTestId('page-dashboard')).toBeVisible();
    await expect(page.getByTestId('page-skeleton')).toHaveCount(0);
    await shot(page, 'dashboard', width);

    const menu = await openProfileMenu(page);
    await expect(menu.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
    await shot(page, 'profile-menu', width);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  }
});
