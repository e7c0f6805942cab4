import {
  activeDirectoryLdif,
  BASE_DN,
  ROOT_DN,
  ROOT_PASSWORD,
  SYNC_DN,
  SYNC_PASSWORD,
  slapdAvailable,
  startSlapd,
  type TestDirectory,
  userDn,
} from '@latchkey/runtime/testing';
import { Attribute, Change, Client } from 'ldapts';
import { ADMINS, atRoute, signIn } from '../support/latchkey.ts';
import { shot, shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// A real OpenLDAP (Debian's slapd) the Hub of the suite reads; CI installs it.
if (!slapdAvailable() && process.env.CI) throw new Error('slapd is missing: apt-get install -y slapd ldap-utils');
test.skip(!slapdAvailable(), 'slapd is not installed on this machine (CI runs this spec)');

let directory: TestDirectory;
test.beforeAll(async () => {
  // Six users (user9 disabled would be the tenth: none here), two groups, group 0 holding group 1.
  directory = await startSlapd(activeDirectoryLdif({ users: 6, groups: 2, groupSize: 3 }));
});
test.afterAll(async () => {
  await directory?.stop();
});

test('Directory sync: connect the directory, read the preview, apply it, see the members and groups; a user disabled in the directory is suspended by "Sync now"', async ({
  page,
}) => {
  await signIn(page, ADMINS.alex.email);
  await page.goto('/#/settings/directory-sync');
  await expect(page).toHaveURL(atRoute('/settings/directory-sync'));
  await expect(page.getByRole('heading', { name: 'Directory sync' })).toBeVisible();

  await page.getByTestId('directory-url').fill(directory.ldapsUrl);
  await page.getByTestId('directory-bind-dn').fill(SYNC_DN);
  await page.getByTestId('directory-bind-password').fill('not-the-password');
  await page.getByTestId('directory-base-dns').fill(BASE_DN);
  await page.getByTestId('directory-ca').fill(directory.caPem);
  // A bind that fails is said in words, and nothing is saved.
  await page.getByTestId('directory-save').click();
  await expect(page.getByText('Bind refused: invalid credentials.')).toBeVisible();
  await page.getByTestId('directory-bind-password').fill(SYNC_PASSWORD);
  await page.getByTestId('directory-test').click();
  await expect(page.getByTestId('directory-test-result')).toContainText('Found 6 users and 2 groups');
  await shots(page, 'directory-connection');
  await page.getByTestId('directory-save').click();
  await expect(page.getByText('Directory connection saved.')).toBeVisible();
  // The password is kept on the Hub and never shown again.
  await expect(page.getByTestId('directory-bind-password')).toHaveValue('');
  await expect(page.getByTestId('directory-sync-now')).toBeDisabled();

  await page.getByTestId('directory-preview-run').click();
  const preview = page.getByTestId('directory-preview');
  await expect(preview.getByTestId('directory-plan-invite')).toContainText('6');
  await expect(preview.getByTestId('directory-plan-invite')).toContainText('user0@example.test');
  await expect(preview.getByTestId('directory-plan-group_create')).toContainText('2');
  await shots(page, 'directory-preview');
  await shot(page, 'directory-preview', 320);
  await page.setViewportSize({ width: 1280, height: 800 });
  await preview.getByTestId('directory-apply').click();
  await expect(page.getByTestId('directory-run').first()).toHaveAttribute('data-outcome', 'applied');

  // The members, invited and marked as the directory's; the source filter finds them.
  await page.goto('/#/users');
  await page.getByTestId('filter-source').click();
  await page.getByRole('checkbox', { name: 'Directory sync' }).check();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('chip-source-directory')).toBeVisible();
  // The apply's toast has gone before the pictures.
  await expect(page.getByText('Changes applied')).toBeHidden({ timeout: 15_000 });
  const directoryRow = page.locator('[data-email="user0@example.test"]');
  await expect(directoryRow).toContainText('Invited');
  await expect(directoryRow.getByTestId('member-source')).toHaveAttribute('data-source', 'directory');
  await expect(page.getByTestId('member-source').filter({ hasNotText: 'Directory sync' })).toHaveCount(0);
  await shots(page, 'members-source');
  await shot(page, 'members-source', 320);
  await page.setViewportSize({ width: 1280, height: 800 });
  // The member's page says who manages their name and e-mail.
  await directoryRow.getByTestId('member-devices-link').click();
  await expect(page.getByTestId('member-managed')).toHaveText(
    'Managed by directory sync: their name and e-mail are changed in your directory.',
  );
  await shot(page, 'directory-member', 1280);
  await shot(page, 'directory-member', 375);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The group holding the nested group's members too, read-only in the console.
  await page.goto('/#/groups');
  // Other specs add groups to Northwind: find it by name, past the first page.
  await page.getByTestId('groups-search').fill('Team 0');
  const groupRow = page.locator('[data-name="Team 0 – Ünits"]');
  await expect(groupRow.getByTestId('group-directory-badge')).toHaveText('Directory sync');
  await shot(page, 'directory-groups', 1280);
  await groupRow.getByRole('button', { name: 'Actions for Team 0 – Ünits' }).click();
  await expect(page.getByRole('menuitem', { name: 'Set priority' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: 'Remove' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await groupRow.getByTestId('group-link').click();
  await expect(page.getByTestId('group-directory-readonly')).toHaveText(
    'Managed by directory sync: change its name and members in your directory.',
  );
  await expect(page.getByTestId('group-add-open')).toHaveCount(0);
  await shots(page, 'directory-group');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Disabled in the directory: suspended by "Sync now".
  const root = new Client({ url: directory.url });
  await root.bind(ROOT_DN, ROOT_PASSWORD);
  await root.modify(userDn(1), [
    new Change({ operation: 'replace', modification: new Attribute({ type: 'userAccountControl', values: ['514'] }) }),
  ]);
  await root.unbind();
  await page.goto('/#/settings/directory-sync');
  await page.getByTestId('directory-sync-now').click();
  await expect(page.getByTestId('directory-run').first()).toContainText('to suspend: 1');
  await shots(page, 'directory-history');
  await page.goto('/#/users');
  await page.getByTestId('members-search').fill('user1@example.test');
  await expect(page.locator('[data-email="user1@example.test"]')).toContainText('Suspended');
});
