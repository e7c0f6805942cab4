import { memberApp } from '../support/hub-client.ts';
import { ADMINS, atRoute, sidebarNav, signIn } from '../support/latchkey.ts';
import { type MailMessage, mailCursor, messagesTo } from '../support/mail.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// The settings test changes the link expiration period the first test's approval relies on.
test.describe.configure({ mode: 'serial' });

/** Members of this run only, so a retry on the same Hub starts clean. */
const run = Date.now().toString(36);

/** The Hub's notification of `member`'s recovery request to `recipient`, polling the suite's mailbox. */
async function recoveryMail(recipient: string, member: string, after: number): Promise<MailMessage> {
  const subject = `Account recovery requested by ${member}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = (await messagesTo(recipient, after)).find((m) => m.subject === subject);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no recovery notification to ${recipient} about ${member}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('recovery: add a recovery admin who approves from their app, then approve a member recovery request', async ({ page }) => {
  const nominee = `mateo.${run}@northwind.example`;
  const nomineeApp = await memberApp(nominee, { publicKey: true });

  await signIn(page, ADMINS.alex.email);
  // One recovery role: the server's recovery agent role comes first, under Administrators.
  await page.goto('/#/settings/manage-administrators');
  await page.getByTestId('admin-add-open').click();
  const addAdmin = page.getByTestId('admin-add-dialog');
  await addAdmin.getByLabel('Email address').fill(nominee);
  await addAdmin.getByRole('checkbox', { name: 'Recovery agent' }).check();
  await addAdmin.getByRole('button', { name: 'Add administrator' }).click();
  await expect(page.getByText(`${nominee} is now an administrator.`)).toBeVisible();

  await sidebarNav(page).getByRole('link', { name: 'Recovery' }).click();
  await expect(page).toHaveURL(atRoute('/recovery'));
  await page.getByRole('link', { name: 'Recovery admins' }).click();
  await expect(page).toHaveURL(atRoute('/recovery/admins'));
  await expect(page.locator('[data-testid="recovery-admin-row"][data-email="rory@northwind.example"]')).toContainText('Active');

  // Someone without the role on the server is refused, with what to do about it.
  await page.getByTestId('recovery-admin-add').click();
  const dialog = page.getByTestId('recovery-admin-dialog');
  // (a member whose app registered a key, so the console's own key check passes first)
  const plain = `lena.${run}@northwind.example`;
  await memberApp(plain, { publicKey: true });
  await dialog.getByLabel('Email address').fill(plain);
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toContainText('Give this person the Recovery agent role under Administrators first.');
  await shots(page, 'hub-recovery-admin-role-required');

  // The super admin asks; the role check passes, and the key check because the member's app registered a key.
  await dialog.getByLabel('Email address').fill(nominee);
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText(`Request sent to ${nominee}.`)).toBeVisible();
  await expect(page.locator(`[data-testid="admin-request"][data-email="${nominee}"]`)).toBeVisible();
  const row = page.locator(`[data-testid="recovery-admin-row"][data-email="${nominee}"]`);
  await expect(row).toContainText('Awaiting approval');
  await shots(page, 'hub-recovery-admins');

  // The nominated member approves from their app (ingestion API, real HTTP).
  const { requests } = (await nomineeApp.call('/api/v1/client/recovery/admin/requests/')) as unknown as {
    requests: { request_id: string }[];
  };
  expect(requests).toHaveLength(1);
  await nomineeApp.call('/api/v1/client/recovery/admin/requests/accept/', { request_id: requests[0]?.request_id });
  await page.reload();
  await expect(row).toContainText('Active');
  await expect(page.locator(`[data-testid="admin-request"][data-email="${nominee}"]`)).toHaveCount(0);
  await row.getByRole('button', { name: 'Verify' }).click();
  await expect(row.getByTestId('secret-result')).toHaveText('Verified');

  // A member's app asks for account recovery; a recovery admin approves it in the console.
  const member = `nia.${run}@northwind.example`;
  const memberDevice = await memberApp(member);
  const cursor = await mailCursor();
  const created = await memberDevice.call('/api/v1/client/recovery/requests/create/');
  // The Hub emails the team's recovery admins (the default recipients): who asked, and where to act.
  for (const recipient of [ADMINS.rory.email, nominee]) {
    const mail = await recoveryMail(recipient, member, cursor);
    expect(mail.text).toContain(`${member} asked to recover their Latchkey account on`);
    expect(mail.text).toContain('/#/recovery');
    expect(mail.text).not.toContain(created.request_id as string);
  }
  await sidebarNav(page).getByRole('link', { name: 'Recovery' }).click();
  await page.getByLabel('Search by member email').fill(`nia.${run}`);
  const request = page.locator(`[data-testid="recovery-row"][data-email="${member}"]`);
  await expect(request).toContainText('Pending');
  // The search narrows the list to that member.
  await expect(page.getByTestId('recovery-row')).toHaveCount(1);
  await shots(page, 'hub-recovery');
  await request.getByRole('button', { name: `Actions for ${member}` }).click();
  await page.getByRole('menuitem', { name: 'Approve' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(`Recovery approved for ${member}.`)).toBeVisible();
  await expect(request).toContainText('Approved');
  await expect(request).toContainText('Valid until');
  const status = await memberDevice.call('/api/v1/client/recovery/requests/status/', { request_id: created.request_id });
  expect(status.state).toBe('approved');
  // Its link lasts the default 120 minutes.
  const minutes = (Date.parse(status.link_expires_at as string) - Date.now()) / 60_000;
  expect(minutes).toBeGreaterThan(115);
  expect(minutes).toBeLessThanOrEqual(120);

  // Deleting it while the link is live needs the force option.
  await request.getByRole('button', { name: `Actions for ${member}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await confirm.getByTestId('force-delete').check();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(request).toHaveCount(0);
});

test('recovery settings: link expiration in minutes and notification recipients', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  await page.goto('/#/settings/recovery');
  const link = page.getByTestId('recovery-link');
  const minutes = link.getByLabel('Link expiration period');
  await expect(minutes).toHaveValue('120 minutes');
  await expect(link).toContainText('In minutes, from 5 to 10,080. Default 120 minutes.');
  await shots(page, 'hub-recovery-settings');
  await minutes.fill('90');
  await link.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();

  const notify = page.getByTestId('recovery-notify');
  await notify.getByLabel('These email addresses').check();
  await expect(notify.getByRole('button', { name: 'Save' })).toBeDisabled();
  await notify.getByRole('combobox', { name: 'Email addresses' }).fill('security@northwind.example');
  await notify.getByRole('combobox', { name: 'Email addresses' }).press('Enter');
  await notify.getByRole('button', { name: 'Save' }).click();
  await expect(notify.getByRole('button', { name: 'Save' })).toBeDisabled();

  // Both settings come back from the Hub after a reload.
  await page.reload();
  await expect(page.getByTestId('recovery-link').getByLabel('Link expiration period')).toHaveValue('90 minutes');
  await expect(page.getByTestId('recovery-notify').getByLabel('These email addresses')).toBeChecked();
  await expect(page.getByTestId('recovery-notify')).toContainText('security@northwind.example');
  // Back to the demo's defaults for other runs.
  await page.getByTestId('recovery-link').getByLabel('Link expiration period').fill('120');
  await page.getByTestId('recovery-link').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('recovery-link').getByRole('button', { name: 'Save' })).toBeDisabled();
});

test('a recovery agent approves a request, without the super admin’s recovery screens', async ({ page }) => {
  const member = `omar.${run}@northwind.example`;
  const app = await memberApp(member);
  const cursor = await mailCursor();
  const created = await app.call('/api/v1/client/recovery/requests/create/');
  // The settings test (run before this one) made an explicit list the recipients: only it is emailed.
  await recoveryMail('security@northwind.example', member, cursor);
  expect((await messagesTo(ADMINS.rory.email, cursor)).filter((m) => m.subject.includes(member))).toEqual([]);

  await signIn(page, ADMINS.rory.email, { expectPath: '/recovery' });
  await expect(page.getByRole('link', { name: 'Recovery admins' })).toHaveCount(0);
  await page.getByLabel('Search by member email').fill(`omar.${run}`);
  const request = page.locator(`[data-testid="recovery-row"][data-email="${member}"]`);
  await request.getByRole('button', { name: `Actions for ${member}` }).click();
  await page.getByRole('menuitem', { name: 'Approve' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(request).toContainText('Approved by rory@northwind.example');
  expect((await app.call('/api/v1/client/recovery/requests/status/', { request_id: created.request_id })).state).toBe('approved');

  // The recovery group and its settings are the super admin's.
  await page.goto('/#/recovery/admins');
  await expect(page).toHaveURL(atRoute('/recovery'));
  await page.goto('/#/settings/recovery');
  await expect(page).toHaveURL(atRoute('/recovery'));
});
