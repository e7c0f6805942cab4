import { crc32, deflateSync } from 'node:zlib';
import { ADMINS, atRoute, sidebarNav, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/** A real PNG: an indigo band on white, wide like a logo. */
function logoPng(width = 160, height = 48): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 0xff);
    row[0] = 0;
    if (y > height / 3 && y < (2 * height) / 3) for (let x = 0; x < width; x++) row.set([0x4c, 0x6e, 0xf5], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('groups: create with members, add members, set priority, open a member’s devices, remove the group', async ({ page }) => {
  await signIn(page, ADMINS.adam.email);
  await sidebarNav(page).getByRole('link', { name: 'Groups' }).click();
  await expect(page).toHaveURL(atRoute('/groups'));
  const rows = page.getByTestId('group-row');
  await expect(rows).toHaveCount(6);
  await expect(rows.first()).toHaveAttribute('data-name', 'Customer Support');
  // Five member badges, then "+n more" leading to the group.
  await expect(rows.filter({ hasText: 'Engineering' }).getByTestId('badge')).toHaveCount(5);
  await expect(rows.filter({ hasText: 'Engineering' }).getByTestId('badges-more')).toHaveText(/^\+\d+ more$/);
  await shots(page, 'groups-list');

  const name = `Night Shift ${Date.now().toString(36)}`;
  await page.getByTestId('group-create-open').click();
  const create = page.getByTestId('group-create-dialog');
  await create.getByTestId('group-create-submit').click();
  await expect(create.getByText('This field is required')).toBeVisible();
  await create.getByTestId('group-name').fill(name);
  const picker = create.getByRole('combobox', { name: 'Members' });
  await picker.fill('eriksen');
  await page
    .getByRole('option', { name: /eriksen/ })
    .first()
    .click();
  await picker.fill('fischer');
  await page
    .getByRole('option', { name: /fischer/ })
    .first()
    .click();
  // A pick closes the list, so it never covers "Create group": the click lands on the button.
  await expect(page.getByRole('listbox')).toBeHidden();
  await shots(page, 'group-create-picked');
  await create.getByTestId('group-create-submit').click();
  await expect(page.getByText(`Group ${name} created.`)).toBeVisible();
  const row = rows.filter({ hasText: name });
  await expect(row).toContainText('Members: 2');

  // Priority from the row menu; the badge shows it.
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Set priority' }).click();
  await page.getByTestId('group-priority').fill('3');
  await page.getByTestId('group-priority-submit').click();
  await expect(row.getByTestId('group-priority-value')).toHaveText('Priority 3');

  // The group's page: add a member, then open a member's devices.
  await row.getByTestId('group-link').click();
  await expect(page.getByTestId('group-title')).toHaveText(name);
  await expect(page.getByTestId('group-member-row')).toHaveCount(2);
  await page.getByTestId('group-add-open').click();
  const add = page.getByTestId('group-add-dialog');
  await add.getByRole('combobox', { name: 'Members' }).fill('haddad');
  await page
    .getByRole('option', { name: /haddad/ })
    .first()
    .click();
  await expect(page.getByRole('listbox')).toBeHidden();
  await add.getByTestId('group-add-submit').click();
  await expect(page.getByText('Members added: 1.')).toBeVisible();
  await expect(page.getByTestId('group-member-row')).toHaveCount(3);
  await expect(page.getByTestId('group-member-count')).toHaveText('Members: 3');
  await shots(page, 'group-members');

  const member = page.getByTestId('group-member-row').first();
  const email = (await member.getAttribute('data-email')) ?? '';
  await member.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Devices' }).click();
  await expect(page).toHaveURL(atRoute(`/groups/${page.url().split('/groups/')[1]?.split('/')[0]}/${encodeURIComponent(email)}`));
  await expect(page.getByTestId('member-devices')).toContainText(email);
  await expect(page.getByTestId('device-row').or(page.getByTestId('devices-empty')).first()).toBeVisible();
  await shots(page, 'group-member-devices');
  await page.getByRole('link', { name: 'Back to Group members' }).click();
  await expect(page.getByTestId('group-title')).toHaveText(name);

  // Remove the group, with confirmation.
  await page.getByRole('link', { name: 'Back to Groups' }).click();
  await rows.filter({ hasText: name }).getByRole('checkbox').check();
  await page.getByTestId('groups-remove-selected').click();
  const confirm = page.getByTestId('group-remove-dialog');
  await expect(confirm).toContainText(name);
  await confirm.getByTestId('group-remove-confirm').click();
  await expect(page.getByText('Groups removed: 1.')).toBeVisible();
  await expect(rows.filter({ hasText: name })).toHaveCount(0);
  await expect(rows).toHaveCount(6);
});

test('members: a member’s devices, and the hub authentication filter', async ({ page }) => {
  await signIn(page, ADMINS.adam.email);
  await sidebarNav(page).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByTestId('member-row').first()).toBeVisible();
  await page.getByTestId('filter-hub').click();
  await page.getByRole('radio', { name: 'Authenticated', exact: true }).check();
  await expect(page.getByTestId('chip-hub')).toHaveText('Hub authentication: Authenticated');
  await page.keyboard.press('Escape');
  // Only active members have Hub-authenticated devices in the demo.
  await expect
    .poll(async () => {
      const usage = await page.getByTestId('member-row').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
      return usage.length > 0 && usage.every((text) => text.includes('Actively using app'));
    })
    .toBe(true);
  const first = page.getByTestId('member-row').first();
  const email = (await first.getAttribute('data-email')) ?? '';
  await first.getByTestId('member-devices-link').click();
  await expect(page).toHaveURL(atRoute(`/users/${encodeURIComponent(email)}`));
  await expect(page.getByTestId('device-row').first()).toBeVisible();
  await expect(
    page
      .getByTestId('hub-auth')
      .filter({ hasText: /^Authenticated$/ })
      .first(),
  ).toBeVisible();
  // The member's page also shows the policy their apps follow, each value with its source.
  const policy = page.getByTestId('effective-policy');
  await expect(policy).toBeVisible();
  await expect(policy.getByTestId('effective-mp.min_length')).toContainText('Minimum length');
  await shots(page, 'member-devices');
});

test('branding: upload a logo, shown in the top bar and on the dashboard, then remove it', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  await expect(page.getByTestId('topbar-logo')).toHaveCount(0);
  await page.getByTestId('logo-button').click();
  await expect(page).toHaveURL(atRoute('/settings/organization-branding'));
  await expect(page.getByTestId('branding-empty')).toBeVisible();

  // The console refuses a file that is not an image before sending it.
  let chooser = page.waitForEvent('filechooser');
  await page.getByTestId('branding-upload').click();
  await (await chooser).setFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg/>') });
  await expect(page.getByTestId('branding-error')).toHaveText('Choose a PNG, JPEG or WebP image.');

  chooser = page.waitForEvent('filechooser');
  await page.getByTestId('branding-upload').click();
  await (await chooser).setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logoPng() });
  await expect(page.getByText('Logo uploaded.')).toBeVisible();
  await expect(page.getByTestId('branding-preview')).toBeVisible();
  await expect(page.getByTestId('branding-meta')).toContainText('160 × 48 px');
  const topbar = page.getByTestId('topbar-logo');
  await expect(topbar).toBeVisible();
  // The image really loaded (a broken image has no natural width).
  await expect.poll(() => topbar.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(160);
  await shots(page, 'branding');

  await sidebarNav(page).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByTestId('dashboard-logo')).toBeVisible();
  await expect(page.getByText("Click the logo to upload your organisation's own.")).toHaveCount(0);

  await page.getByTestId('logo-button').click();
  await page.getByTestId('branding-remove').click();
  await page.getByTestId('branding-remove-confirm').click();
  await expect(page.getByText('Logo removed.')).toBeVisible();
  await expect(page.getByTestId('branding-empty')).toBeVisible();
  await expect(page.getByTestId('topbar-logo')).toHaveCount(0);
});

test('a refusal from the server reads in the admin’s language, naming what was typed', async ({ page }) => {
  await signIn(page, ADMINS.adam.email);
  await page.evaluate(`localStorage.setItem('latchkey.language', 'de')`);
  await page.goto('/#/groups');
  await page.reload();
  await expect(page.getByTestId('group-row').first()).toBeVisible();
  await page.getByTestId('group-create-open').click();
  const create = page.getByTestId('group-create-dialog');
  await create.getByTestId('group-name').fill('sales');
  await create.getByTestId('group-create-submit').click();
  // The server's key and value (errors.group_already_exists, name), not its English description.
  await expect(create.getByText('In diesem Team gibt es bereits eine Gruppe namens „sales“.')).toBeVisible();
  await expect(create.getByText('already exists')).toHaveCount(0);
});
