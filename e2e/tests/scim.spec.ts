import { ADMINS, atRoute, sidebarNav, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/** What an identity provider's provisioning client does, with the token the admin copied. */
async function scim(baseUrl: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/scim+json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

test('SCIM: create a connector, copy its token, provision users and a group, see them (group read-only) and the request log', async ({
  page,
  context,
}, testInfo) => {
  // A retry finds the connector its first attempt made: names are its own, and only the first meets the empty state.
  const stamp = Date.now().toString(36);
  const connector = `Okta production ${stamp}`;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, ADMINS.alex.email);
  await page.goto('/#/settings/scim-connectors');
  await expect(page).toHaveURL(atRoute('/settings/scim-connectors'));
  await expect(page.getByRole('heading', { name: 'SCIM connectors' })).toBeVisible();
  if (testInfo.retry === 0) {
    await expect(page.getByTestId('scim-empty')).toBeVisible();
    await shots(page, 'scim-empty');
  }

  await page.getByTestId('scim-create-open').click();
  const create = page.getByTestId('scim-create-dialog');
  // The dialog's own action says what it does, not the name of the button that opened it.
  await expect(create.getByTestId('scim-create-submit')).toHaveText('Create connector');
  await create.getByTestId('scim-create-submit').click();
  await expect(create.getByText('This field is required')).toBeVisible();
  await create.getByTestId('scim-idp').click();
  await page.getByRole('option', { name: 'Okta' }).click();
  await create.getByTestId('scim-name').fill(connector);
  await create.getByTestId('scim-create-submit').click();

  const tokenDialog = page.getByTestId('scim-token-dialog');
  await expect(tokenDialog.getByText('Set up provisioning in Okta')).toBeVisible();
  await expect(tokenDialog.getByTestId('scim-steps').getByRole('listitem')).toHaveCount(5);
  const tenantUrl = (await tokenDialog.getByTestId('scim-token-tenant-url').textContent()) ?? '';
  expect(tenantUrl).toMatch(/\/scim\/v2$/);
  await tokenDialog.getByTestId('scim-token-copy').click();
  await expect(tokenDialog.getByTestId('scim-token-copy')).toHaveText('Copied');
  const token = await page.evaluate<string>('navigator.clipboard.readText()');
  expect(token).toBe(await tokenDialog.getByTestId('scim-token').textContent());
  await shots(page, 'scim-token');
  await tokenDialog.getByTestId('scim-token-done').click();
  await expect(tokenDialog).toBeHidden();
  const row = page.getByTestId('scim-connector-row').filter({ hasText: connector });
  await expect(row.getByTestId('scim-status')).toHaveText('Active');
  await expect(row.getByTestId('scim-last-request')).toHaveText('Never');
  // The token is never shown again.
  await expect(page.getByText(token)).toHaveCount(0);

  // The identity provider provisions two users and a group with them.
  const emails = [`scim.ada.${stamp}@northwind.example`, `scim.alan.${stamp}@northwind.example`];
  const ids: string[] = [];
  for (const [i, email] of emails.entries()) {
    const res = await scim(tenantUrl, token, 'POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      name: { givenName: ['Ada', 'Alan'][i], familyName: ['Lovelace', 'Turing'][i] },
      active: true,
    });
    expect(res.status).toBe(201);
    ids.push(res.body.id as string);
  }
  const groupName = `SCIM Engineers ${stamp}`;
  const group = await scim(tenantUrl, token, 'POST', '/Groups', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    displayName: groupName,
    members: ids.map((value) => ({ value })),
  });
  expect(group.status).toBe(201);
  const refused = await scim(tenantUrl, token, 'GET', '/Users?filter=userName%20eq%20%22x%22%20or%20or');
  expect(refused.status).toBe(400);

  try {
    // Users: the provisioned members are there, invited, as console invitations are.
    await sidebarNav(page).getByRole('link', { name: 'Users' }).click();
    await page
      .getByPlaceholder(/Search/)
      .first()
      .fill(`scim.ada.${stamp}`);
    await expect(page.getByText(emails[0] as string)).toBeVisible();

    // Groups: the group, with its SCIM badge and no rename or remove.
    await sidebarNav(page).getByRole('link', { name: 'Groups' }).click();
    // Other specs of this project add groups too: find this one by name, wherever it would page to.
    await page.getByTestId('groups-search').fill(groupName);
    const groupRow = page.getByTestId('group-row').filter({ hasText: groupName });
    await expect(groupRow.getByTestId('group-scim-badge')).toHaveText('SCIM');
    await groupRow.getByRole('button', { name: `Actions for ${groupName}` }).click();
    await expect(page.getByRole('menuitem', { name: 'Rename' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: 'Remove' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await shots(page, 'scim-groups');
    await groupRow.getByTestId('group-link').click();
    await expect(page.getByTestId('group-title')).toHaveText(groupName);
    await expect(page.getByTestId('group-scim-readonly')).toBeVisible();
    await expect(page.getByTestId('group-add-open')).toHaveCount(0);
    await expect(page.getByText(emails[1] as string)).toBeVisible();
    await shots(page, 'scim-group-members');

    // The request log, newest first, with the refused filter's error.
    await page.goto('/#/settings/scim-connectors');
    await expect(row.getByTestId('scim-last-request')).not.toHaveText('Never');
    await row.getByRole('button', { name: `Actions for ${connector}` }).click();
    await page.getByTestId('scim-show-log').click();
    const log = page.getByTestId('scim-log');
    await expect(log.getByTestId('scim-log-row')).toHaveCount(4);
    await expect(log.getByTestId('scim-log-row').first()).toContainText('GET /scim/v2/Users?filter=userName eq "x" or or');
    await expect(log.getByTestId('scim-log-row').first().getByTestId('scim-log-status')).toHaveText('400');
    await expect(log.getByText(/invalidFilter/)).toBeVisible();
    await expect(log.getByTestId('scim-log-row').nth(1)).toContainText('POST /scim/v2/Groups');
    await shots(page, 'scim-log');
  } finally {
    // Leave the shared demo team as other specs expect it.
    await scim(tenantUrl, token, 'DELETE', `/Groups/${group.body.id}`);
    for (const id of ids) await scim(tenantUrl, token, 'DELETE', `/Users/${id}`);
  }

  // Revoke: the token stops working at once.
  await page.reload();
  await row.getByRole('button', { name: `Actions for ${connector}` }).click();
  await page.getByTestId('scim-revoke-open').click();
  await page.getByTestId('scim-revoke-confirm').click();
  await expect(row.getByTestId('scim-status')).toHaveText('Revoked');
  expect((await scim(tenantUrl, token, 'GET', '/Users')).status).toBe(401);
});
