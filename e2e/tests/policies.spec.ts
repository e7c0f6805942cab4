import type { Locator, Page } from '@playwright/test';
import { ADMINS, atRoute, NORTHWIND, readSession, type SignInOptions, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// The tests change one team's policy: they run one after another, in this order.
test.describe.configure({ mode: 'default' });

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Console sections' });
const field = (page: Page, key: string): Locator => page.getByTestId(`policy-${key}`);
const choose = (page: Page, key: string, label: string) => field(page, key).getByText(label, { exact: true }).click();
const expectChosen = (page: Page, key: string, label: string) =>
  expect(field(page, key).getByRole('radio', { name: label, exact: true })).toBeChecked();
const unsavedDialog = (page: Page) => page.getByRole('dialog', { name: 'Unsaved Changes' });
const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text });

async function openPolicies(page: Page, email: string, options?: SignInOptions): Promise<void> {
  await signIn(page, email, options);
  await sidebar(page).getByRole('link', { name: 'Policy' }).click();
  await expect(page).toHaveURL(atRoute('/policies'));
  await expect(page.getByTestId('team-policy-form')).toBeVisible();
}

/** A server call with the page's own session, for facts the screens do not show (who is in which group). */
async function api<T>(page: Page, path: string, body: unknown): Promise<T> {
  const token = (await readSession(page))?.token.access ?? '';
  const res = await page.request.post(path, { data: body, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T;
}

test('team policy: edit, see the impact, save, and it stays saved', async ({ page }) => {
  await openPolicies(page, ADMINS.adam.email);
  await expect(page.getByText('No unsaved changes.')).toBeVisible();
  await shots(page, 'policies-team', { fullPage: false });
  await choose(page, 'mp.require_symbols', 'On');
  await expect(page.getByTestId('policy-impact')).toHaveText(/^\d+ of \d+ members would be affected\.$/);
  await page.getByTestId('policy-save').click();
  await expect(toast(page, 'Successfully updated')).toBeVisible();
  await expect(page.getByText('No unsaved changes.')).toBeVisible();
  await page.reload();
  await expectChosen(page, 'mp.require_symbols', 'On');
});

test('mp.min_length 1001 is refused: the field says why and Save stays disabled', async ({ page }) => {
  await openPolicies(page, ADMINS.alex.email);
  const input = page.getByTestId('policy-input-mp.min_length');
  await input.fill('1001');
  await expect(field(page, 'mp.min_length')).toContainText('Enter a whole number from 8 to 1000.');
  await expect(page.getByText('Correct the highlighted values to save.')).toBeVisible();
  await expect(page.getByTestId('policy-save')).toBeDisabled();
  await shots(page, 'policies-error', { fullPage: false });
  await input.fill('1000');
  await expect(page.getByTestId('policy-save')).toBeEnabled();
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(input).toHaveValue('14');
});

test('unsaved changes via the sidebar: cancel stays, discard leaves, Save & Continue saves then leaves', async ({ page }) => {
  await openPolicies(page, ADMINS.adam.email);
  await choose(page, 'autofill.on_page_load', 'On');
  await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(unsavedDialog(page)).toContainText('Do you want to save unsaved Changes?');
  await shots(page, 'policies-unsaved-dialog', { fullPage: false });
  await unsavedDialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(atRoute('/policies'));
  await expectChosen(page, 'autofill.on_page_load', 'On');

  await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
  await unsavedDialog(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await sidebar(page).getByRole('link', { name: 'Policy' }).click();
  await expectChosen(page, 'autofill.on_page_load', 'Default (Off)');

  await choose(page, 'autofill.on_page_load', 'On');
  await sidebar(page).getByRole('link', { name: 'Dashboard' }).click();
  await unsavedDialog(page).getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await expect(toast(page, 'Successfully updated')).toBeVisible();
  await sidebar(page).getByRole('link', { name: 'Policy' }).click();
  await expectChosen(page, 'autofill.on_page_load', 'On');

  // The browser's Back button: held while there are unsaved changes, then the same three choices.
  await choose(page, 'autofill.on_page_load', 'Off');
  await page.evaluate('history.back()');
  await expect(unsavedDialog(page)).toBeVisible();
  await expect(page).toHaveURL(atRoute('/policies'));
  await unsavedDialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expectChosen(page, 'autofill.on_page_load', 'Off');
  await page.evaluate('history.back()');
  await unsavedDialog(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await sidebar(page).getByRole('link', { name: 'Policy' }).click();

  // Closing or reloading the tab: the browser's own leave warning.
  await choose(page, 'autofill.on_page_load', 'Off');
  const warned = new Promise<string>((done) => page.once('dialog', (d) => void d.accept().then(() => done(d.type()))));
  await page.close({ runBeforeUnload: true });
  expect(await warned).toBe('beforeunload');
});

test('unsaved changes on team switch and logout: each prompt path', async ({ page }) => {
  await openPolicies(page, ADMINS.sam.email, { team: NORTHWIND.name });
  await choose(page, 'generator.digits', 'Off');

  // Team switch: cancel keeps the edit and opens nothing; discard goes on to the switch dialog.
  await page.getByTestId('profile-menu').click();
  await page.getByTestId('switch-teams').click();
  await expect(unsavedDialog(page)).toContainText('Do you want to save unsaved Changes?');
  await unsavedDialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog', { name: 'Switch teams' })).toHaveCount(0);
  await expectChosen(page, 'generator.digits', 'Off');
  await page.getByTestId('profile-menu').click();
  await page.getByTestId('switch-teams').click();
  await unsavedDialog(page).getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('dialog', { name: 'Switch teams' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Switch teams' }).getByRole('button', { name: 'Cancel' }).click();
  await expectChosen(page, 'generator.digits', 'Default (On)');

  // Logout: cancel stays signed in; Save & Continue saves, then signs out.
  await choose(page, 'generator.digits', 'Off');
  await page.getByTestId('profile-menu').click();
  await page.getByTestId('logout').click();
  await unsavedDialog(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(atRoute('/policies'));
  await page.getByTestId('profile-menu').click();
  await page.getByTestId('logout').click();
  await unsavedDialog(page).getByRole('button', { name: 'Save & Continue' }).click();
  await expect(page).toHaveURL(atRoute('/login'));

  // Saved before the sign-out: another admin, in a fresh tab, sees it.
  const again = await page.context().newPage();
  await signIn(again, ADMINS.adam.email);
  await sidebar(again).getByRole('link', { name: 'Policy' }).click();
  await expectChosen(again, 'generator.digits', 'Off');
});

test('group override with a priority, shown as "from group X" in a member\'s effective policy, then removed', async ({
  page,
}) => {
  await openPolicies(page, ADMINS.alex.email);
  await page.getByTestId('tab-groups').click();
  await page.getByTestId('policy-group-select').click();
  await page.getByRole('option', { name: /^Finance/ }).click();
  await expect(page.getByTestId('group-policy-form')).toContainText('No override');
  await choose(page, 'export.allowed', 'On');
  await page.getByTestId('policy-priority').fill('3');
  await expect(page.getByTestId('policy-impact')).toBeVisible();
  await shots(page, 'policies-group', { fullPage: false });
  await page.getByTestId('policy-save').click();
  await expect(toast(page, 'Successfully updated')).toBeVisible();
  await expect(page.getByTestId('group-policy-form')).toContainText('Overrides the team policy');
  await expect(page.getByTestId('policy-group-select')).toHaveValue('Finance · priority 3');

  // A member of Finance and of no higher-priority group that sets export.allowed (Leadership, priority 2, does).
  const { results } = await api<{ results: { email: string }[] }>(page, '/api/v1/team/members/', { page_size: 100 });
  let member: string | undefined;
  for (const { email } of results) {
    const eff = await api<{ policies: { key: string; group_name: string | null }[] }>(
      page,
      '/api/v1/policy/team/member/effective/',
      { email },
    );
    if (eff.policies.find((p) => p.key === 'export.allowed')?.group_name === 'Finance') {
      member = email;
      break;
    }
  }
  expect(member, 'a member whose export policy comes from Finance').toBeDefined();
  await page.getByRole('button', { name: "Member's policy" }).click();
  const dialog = page.getByRole('dialog', { name: "A member's effective policy" });
  await dialog.getByTestId('effective-member').fill(member as string);
  await page.getByRole('option', { name: new RegExp(member as string) }).click();
  await expect(dialog.getByTestId('effective-export.allowed')).toContainText('On');
  await expect(dialog.getByTestId('effective-export.allowed')).toContainText('From group Finance');
  await shots(page, 'policies-effective', { fullPage: false });
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Remove override' }).click();
  await page.getByTestId('policy-save').click();
  await expect(page.getByTestId('group-policy-form')).toContainText('No override');
  await expect(page.getByTestId('policy-group-select')).toHaveValue('Finance · No override');
});

test('history: a change shows a per-key diff, and restoring an older version makes it current', async ({ page }) => {
  await openPolicies(page, ADMINS.adam.email);
  await choose(page, 'import.allowed', 'Off');
  await page.getByTestId('policy-save').click();
  await expect(page.getByText('No unsaved changes.')).toBeVisible();
  await choose(page, 'import.allowed', 'On');
  await page.getByTestId('policy-save').click();
  await expect(page.getByText('No unsaved changes.')).toBeVisible();

  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(atRoute('/policies/history'));
  const rows = page.getByTestId('policy-history-row');
  await expect(rows.first()).toContainText(ADMINS.adam.email);
  await expect(rows.first()).toContainText('Allow import');
  await shots(page, 'policies-history', { fullPage: false });

  // The older change (import Off) is the second row.
  await rows.nth(1).click();
  await expect(page).toHaveURL(/#\/policies\/history\/\d+$/);
  const diff = page.getByTestId('diff-import.allowed');
  await expect(diff).toContainText('Allow import');
  await expect(diff).toContainText('Not set');
  await expect(diff).toContainText('Off');
  await expect(diff).toContainText('Set');
  await shots(page, 'policies-change', { fullPage: false });
  await page.getByTestId('policy-restore').click();
  await expect(page.getByRole('dialog', { name: 'Restore this version?' })).toContainText('saved as a new change');
  await page.getByTestId('policy-restore-confirm').click();
  await expect(page).toHaveURL(atRoute('/policies/history'));
  await expect(rows.first()).toContainText('Restored');

  await sidebar(page).getByRole('link', { name: 'Policy' }).click();
  await expectChosen(page, 'import.allowed', 'Off');
});

test('a save the server refuses shows its reason as a red toast, and the edits stay (spec §8 Policy save)', async ({ page }) => {
  await openPolicies(page, ADMINS.alex.email);
  const name = `Gone ${Date.now().toString(36)}`;
  const group = await api<{ id: string }>(page, '/api/v1/team/group/create/', { group: name, emails: [] });
  await page.reload();
  await page.getByTestId('tab-groups').click();
  await page.getByTestId('policy-group-select').click();
  await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
  await choose(page, 'export.allowed', 'On');
  // Another admin removes the group while this one edits its policy.
  await api(page, '/api/v1/team/group/remove/', { id: [group.id] });
  await page.getByTestId('policy-save').click();
  const refused = toast(page, 'This group is no longer in this team.');
  await expect(refused).toBeVisible();
  await expect(refused).toHaveAttribute('style', /red/);
  await expect(toast(page, 'Successfully updated')).toHaveCount(0);
  await expectChosen(page, 'export.allowed', 'On');
});
