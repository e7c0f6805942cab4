import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { ADMINS, openProfileMenu, signIn } from '../support/latchkey.ts';
import { expect, test } from '../support/test.ts';

const DIR = resolve(import.meta.dirname, '../../test-results/screenshots');

async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 740 });
    await page.screenshot({ path: join(DIR, `${name}-${width}.png`), fullPage: true, animations: 'disabled' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('profile: name, email and initial; a super admin edits the team name, which is required', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Profile' }).click();
  const profile = page.getByTestId('profile');
  await expect(profile.getByTestId('profile-name')).toHaveText(ADMINS.alex.name);
  await expect(profile.getByTestId('profile-email')).toHaveText(ADMINS.alex.email);
  await expect(profile.getByTestId('profile-initial')).toHaveText('A');
  const teamName = profile.getByTestId('profile-team-name');
  await expect(teamName).toHaveValue('Northwind Traders');
  await expect(profile.getByRole('button', { name: 'Save' })).toBeDisabled();
  await teamName.fill('');
  await teamName.blur();
  await expect(profile.getByText('Enter a team name')).toBeVisible();
  await expect(profile.getByRole('button', { name: 'Save' })).toBeDisabled();
  await shots(page, 'people-profile');
});

test('profile: an admin scope sees no team name form', async ({ page }) => {
  await signIn(page, ADMINS.adam.email);
  await page.goto('/#/profile');
  await expect(page.getByTestId('profile-name')).toHaveText(ADMINS.adam.name);
  await expect(page.getByTestId('profile-team-name')).toHaveCount(0);
});
