import type { Page } from '@playwright/test';
import { ADMINS, atRoute, FAMILY, familyTrialPopupSeen, openProfileMenu, signIn } from '../support/latchkey.ts';
import { shot, shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// Spec §2 Route table (settings screens), Family plan settings; §4 Family plan; §5 Family assign.

const card = (page: Page, name: string) => page.getByTestId(`settings-card-${name}`);
const ALL_SETTINGS = [
  'account-security',
  'manage-administrators',
  'approvals',
  'organization-branding',
  'sso-connector',
  'scim-connectors',
  'directory-sync',
  'recovery',
  'eventlogs',
  'family-plan',
];

/** Opens /settings from the profile menu, then each card, and back again by the page's own link. */
async function walkSettings(page: Page, expected: string[]) {
  await (await openProfileMenu(page)).getByRole('menuitem', { name: 'Settings' }).click();
  await expect(page).toHaveURL(atRoute('/settings'));
  await expect(page.getByTestId('settings-index')).toBeVisible();
  await expect(page.getByTestId('settings-index').locator('[data-testid^="settings-card-"]')).toHaveCount(expected.length);
  for (const name of expected) {
    await card(page, name).click();
    await expect(page).toHaveURL(atRoute(`/settings/${name}`));
    await expect(page.getByTestId(`page-settings/${name}`)).toBeVisible();
    await page.getByTestId('page-back').click();
    await expect(page).toHaveURL(atRoute('/settings'));
  }
}

test('the super admin reaches every settings screen from /settings, and back', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  await walkSettings(page, ALL_SETTINGS);
  await expect(card(page, 'family-plan')).toContainText('Give members a free family plan');
  await shots(page, 'settings-index');
});

// An admin may ask for approvals (and approve what their scope allows); the other scopes neither.
const OWN_SETTINGS = { adam: ['account-security', 'approvals'], ivy: ['account-security'], rory: ['account-security'] };
for (const who of ['adam', 'ivy', 'rory'] as const) {
  test(`${who} (${ADMINS[who].scope}) sees account security${who === 'adam' ? ' and approvals' : ' only'}; family plan sends them to /settings`, async ({
    page,
  }) => {
    await signIn(page, ADMINS[who].email);
    await walkSettings(page, OWN_SETTINGS[who]);
    await page.goto('/#/settings/family-plan');
    await expect(page).toHaveURL(atRoute('/settings'));
    await page.goto('/#/settings/manage-administrators');
    await expect(page).toHaveURL(atRoute(ADMINS[who].landing));
  });
}

test("a family team's super admin: the settings the spec allows, family plan goes to /settings", async ({ page }) => {
  await familyTrialPopupSeen(page);
  await signIn(page, ADMINS.sam.email, { team: FAMILY.name, expectPath: '/dashboard' });
  await walkSettings(page, ['account-security', 'approvals']);
  await page.goto('/#/settings/family-plan');
  await expect(page).toHaveURL(atRoute('/settings'));
});

test('an organisation not entitled to grant the family plan (Team.benefit.grant_subscription): no card, and /settings/family-plan goes to /settings', async ({
  page,
}) => {
  // Lucerne's super admin: an organisation on the standard plan without the entitlement.
  await signIn(page, 'lee@lucerne.example');
  await page.goto('/#/settings');
  await expect(card(page, 'account-security')).toBeVisible();
  await expect(card(page, 'manage-administrators')).toBeVisible();
  await expect(card(page, 'family-plan')).toHaveCount(0);
  await page.goto('/#/settings/family-plan');
  await expect(page).toHaveURL(atRoute('/settings'));
  await expect(page.getByTestId('settings-index')).toBeVisible();
  await shot(page, 'settings-index-no-family-plan', 320);
  await shots(page, 'settings-index-no-family-plan');
});

test('family plan: assign to groups, change them (removed groups listed), all members, unassign all', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  await page.goto('/#/settings/family-plan');
  const assignment = page.getByTestId('family-assignment');
  await expect(assignment).toHaveAttribute('data-type', 'none');
  await expect(assignment).toContainText('Not assigned');
  // Unassign all needs an assignment.
  await page.getByTestId('family-menu').click();
  await expect(page.getByTestId('family-unassign')).toBeDisabled();
  await page.keyboard.press('Escape');

  await page.getByTestId('family-assign').click();
  const dialog = page.getByTestId('family-dialog');
  const save = page.getByTestId('family-save');
  await page.getByTestId('family-type-groups').check();
  await expect(save).toBeDisabled();
  const select = dialog.getByLabel('Groups', { exact: true });
  await select.click();
  await select.fill('eng');
  await expect(page.getByRole('option')).toHaveCount(1);
  await page.getByRole('option', { name: 'Engineering' }).click();
  await select.fill('sal');
  await page.getByRole('option', { name: 'Sales' }).click();
  await page.keyboard.press('Escape');
  await shots(page, 'family-plan-assign', { fullPage: false });
  await expect(save).toBeEnabled();
  await save.click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(/Family plan updated: given to \d+, removed from 0\./)).toBeVisible();
  await expect(assignment).toHaveAttribute('data-type', 'groups');
  await expect(page.getByTestId('family-groups')).toContainText('Engineering');
  await expect(page.getByTestId('family-groups')).toContainText('Sales');
  await expect(page.getByTestId('family-holders')).not.toHaveText('Members with the family plan: 0');
  await shots(page, 'family-plan');

  // Change: take Sales out; the dialog lists the group removed by the change.
  await page.getByTestId('family-assign').click();
  await expect(save).toBeDisabled();
  // Choosing a chosen group again takes it out.
  await select.click();
  await select.fill('sal');
  await page.getByRole('option', { name: 'Sales' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('family-removed-groups')).toContainText('Sales');
  await save.click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('family-groups')).not.toContainText('Sales');
  await expect(page.getByTestId('family-groups')).toContainText('Engineering');

  // Everyone, then unassign all (confirmed).
  await page.getByTestId('family-assign').click();
  await page.getByTestId('family-type-all').check();
  await expect(page.getByTestId('family-removed-groups')).toHaveCount(0);
  await save.click();
  await expect(assignment).toHaveAttribute('data-type', 'all');
  await page.getByTestId('family-menu').click();
  await page.getByTestId('family-unassign').click();
  await page.getByTestId('confirm-action').click();
  await expect(assignment).toHaveAttribute('data-type', 'none');
  await expect(page.getByTestId('family-holders')).toHaveText('Members with the family plan: 0');
});
