import { ADMINS, openProfileMenu, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

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
