import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { ADMINS, signIn } from '../support/latchkey.ts';
import { expect, test } from '../support/test.ts';

/** Kept after the run; SHOTS_DIR moves them (e.g. to compare two branches). */
const DIR = process.env.SHOTS_DIR ?? resolve(import.meta.dirname, '../../test-results/screenshots');

async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 740 });
    await page.screenshot({ path: join(DIR, `${name}-${width}.png`), fullPage: true, animations: 'disabled' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('list screens: skeleton rows while the first page loads, then the screen’s own empty state', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);

  // The members call is held back: the table keeps its shape with skeleton rows, no blank page.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/v1/team/members/', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/#/users');
  await expect(page.getByTestId('members-table').getByTestId('skeleton-row')).toHaveCount(5);
  await shots(page, 'state-members-loading');
  release();
  await expect(page.getByTestId('member-row')).toHaveCount(10);
  await page.unroute('**/api/v1/team/members/');

  // Nothing matches: the sentence says so, with the action that fills the list.
  await page.getByTestId('members-search').fill('nobody-by-this-name');
  await expect(page.getByTestId('members-empty')).toContainText('No members match');
  await expect(page.getByTestId('members-empty').getByRole('button', { name: 'Invite members' })).toBeVisible();
  await expect(page.getByTestId('members-range')).toHaveText('\u00a0');
  await shots(page, 'state-members-empty');

  await page.goto('/#/groups');
  await expect(page.getByTestId('group-row').first()).toBeVisible();
  await page.getByTestId('groups-search').fill('no-such-group');
  await expect(page.getByTestId('groups-empty')).toHaveText('No groups match your search.');
  await expect(page.getByTestId('pager')).toHaveCount(0);
  await shots(page, 'state-groups-empty');
});
