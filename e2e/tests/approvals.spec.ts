import type { Browser, Page } from '@playwright/test';
import { SERVER_URL } from '../support/env.ts';
import { extraHub } from '../support/extra-hub.ts';
import { atRoute, continueButton, flipSwitch, passwordAndCode, signIn } from '../support/latchkey.ts';
import { shot } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// The demo's Fourth Coffee team (apps/server/src/features/demo/approvals.demo.ts): two super admins.
const ANA = { email: 'ana@fourthcoffee.example', name: 'Ana Ruiz' };
const BEN = { email: 'ben@fourthcoffee.example', name: 'Ben Carter' };

// Fourth Coffee's Hub: a process of this spec's own (the demo Hub serves Northwind only).
const hub = extraHub(2, '2.2.0');

// The second test builds on the first one's policy (switched on, every class listed).
test.describe.configure({ mode: 'serial' });
test.afterAll(() => hub.dispose());

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text });

/** The page at 1280, 375 and 320 px (each scanned with axe first), then back at the desktop size. */
async function threeWidths(page: Page, name: string): Promise<void> {
  for (const width of [1280, 375, 320]) await shot(page, name, width);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A second browser, as another person on another machine: its own context, cookies and storage. */
async function otherBrowser(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1280, height: 800 } });
  // Its own client address, as the suite gives each test (the server limits requests per address).
  await context.route(`${SERVER_URL}/**`, async (route) =>
    route.continue({ headers: { ...(await route.request().allHeaders()), 'x-forwarded-for': '10.250.0.2' } }),
  );
  return context.newPage();
}

test('four eyes: a relaxed policy waits for a second super admin, who approves it with a comment in another browser', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // Ana switches the approval policy on at its screen (off, so this change itself runs at once).
  await signIn(page, ANA.email, { expectPath: '/dashboard' });
  await page.goto('/#/settings');
  await page.getByTestId('settings-card-approvals').click();
  await expect(page).toHaveURL(atRoute('/settings/approvals'));
  await page.getByRole('tab', { name: 'Approval policy' }).click();
  const policy = page.getByTestId('approval-policy');
  await expect(policy.getByTestId('approval-policy-enabled')).not.toBeChecked();
  await expect(policy.getByLabel('Relax a policy')).toBeChecked();
  await flipSwitch(policy.getByTestId('approval-policy-enabled'));
  await expect(page.getByTestId('approval-policy-save')).toBeEnabled();
  // Asking for more people than could agree says so where the policy is set, before it is saved.
  const approvers = policy.getByTestId('approval-policy-approvers');
  await approvers.fill('3');
  await expect(policy.getByTestId('approval-lockout')).toContainText('The policy needs 3 people to agree, but only 2 could.');
  await approvers.fill('2');
  await expect(policy.getByTestId('approval-lockout')).toHaveCount(0);
  await threeWidths(page, 'approvals-policy');
  await page.getByTestId('approval-policy-save').click();
  await expect(toast(page, 'Approval policy saved')).toBeVisible();
  await expect(page.getByTestId('approval-policy-save')).toBeDisabled();

  // Ana relaxes the team policy: the minimum password length from 14 down to 10.
  await page.goto('/#/policies');
  const minLength = page.getByTestId('policy-input-mp.min_length');
  await expect(minLength).toHaveValue('14');
  await minLength.fill('10');
  await page.getByTestId('policy-save').click();
  const notice = page.getByTestId('approval-notice');
  await expect(notice).toContainText(/^Waiting for approval by another super admin — requested \d{2}:\d{2}/);
  await expect(toast(page, 'Successfully updated')).toHaveCount(0);
  // The form shows the policy as it still is: the change lives in the request now.
  await expect(minLength).toHaveValue('14');
  await threeWidths(page, 'approvals-notice');
  // Nothing changed: a reload reads the policy as it was, and the notice stays (the server's list).
  await page.reload();
  await expect(minLength).toHaveValue('14');
  await expect(notice).toBeVisible();

  // Ben, in another browser, sees the count in the top bar and approves with a comment.
  const ben = await otherBrowser(browser);
  await signIn(ben, BEN.email, { expectPath: '/dashboard' });
  const count = ben.getByTestId('topbar-approvals');
  await expect(count).toContainText('1');
  await count.click();
  await expect(ben).toHaveURL(atRoute('/settings/approvals'));
  const request = ben.getByTestId('approval-request').first();
  await expect(request.getByTestId('approval-action')).toHaveText('Relax a policy');
  await expect(request).toContainText(`Requested by ${ANA.name}`);
  await expect(request.getByTestId('diff-mp.min_length')).toContainText('14');
  await expect(request.getByTestId('diff-mp.min_length')).toContainText('10');
  await threeWidths(ben, 'approvals-waiting');
  await request.getByTestId('approval-approve').click();
  const dialog = ben.getByRole('dialog', { name: 'Approve this change?' });
  await dialog.getByLabel('Comment').fill('Fine for the pilot group');
  await dialog.getByTestId('approval-dialog-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(ben.getByTestId('approvals-empty')).toHaveText('Nothing waits for your approval.');
  await expect(count).toHaveCount(0);

  // The history says who asked and who approved, with the comment.
  await ben.getByRole('tab', { name: 'History' }).click();
  const done = ben.getByTestId('approval-request').first();
  await expect(done.getByTestId('approval-status')).toHaveText('Applied');
  await expect(done.getByTestId('approval-comment')).toContainText('Fine for the pilot group');
  await expect(done).toContainText(BEN.name);

  // The change is made, once, and the policy history shows both names.
  await page.reload();
  await expect(minLength).toHaveValue('10');
  await expect(notice).toHaveCount(0);
  await page.goto('/#/policies/history');
  const latest = page.getByTestId('policy-history-row').first();
  await expect(latest).toContainText(ANA.email);
  await expect(latest).toContainText(BEN.name);
  await expect(latest).toContainText('Minimum length');
  await ben.context().close();

  // Ana asks again, then withdraws it from her requests: it can never run, and the notice goes.
  await page.goto('/#/policies');
  await minLength.fill('8');
  await page.getByTestId('policy-save').click();
  await expect(notice).toBeVisible();
  await page.getByTestId('approval-notice-link').click();
  await expect(page).toHaveURL(atRoute('/settings/approvals'));
  await expect(page.getByRole('tab', { name: 'My requests' })).toHaveAttribute('aria-selected', 'true');
  const mine = page.getByTestId('approval-request').first();
  await expect(mine.getByTestId('approval-status')).toHaveText('Waiting');
  await mine.getByTestId('approval-withdraw').click();
  const withdraw = page.getByRole('dialog', { name: 'Withdraw your request?' });
  await withdraw.getByLabel('Comment').fill('Asked too soon');
  await withdraw.getByTestId('approval-dialog-confirm').click();
  await expect(withdraw).toBeHidden();
  await expect(mine.getByTestId('approval-status')).toHaveText('Withdrawn');
  await page.goto('/#/policies');
  await expect(minLength).toHaveValue('10');
  await expect(notice).toHaveCount(0);
});

test("four eyes on the Hub: shortening the event log's retention waits for a second super admin; the requester's repeat applies it", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await hub.start();
  // Ana connects Fourth Coffee to its Hub and switches the event logs on.
  await signIn(page, ANA.email, { expectPath: '/dashboard' });
  await page.goto('/#/integration');
  const connect = page.getByTestId('hub-connect');
  await connect.getByTestId('hub-url').fill(hub.url);
  await connect.getByTestId('hub-check').click();
  await expect(connect.getByTestId('hub-check-result')).toContainText('This Hub does not serve your team yet.');
  await connect.getByTestId('hub-setup-key').fill(hub.setupKey('fourthcoffee'));
  await connect.getByTestId('hub-connect-submit').click();
  await expect(page).toHaveURL(atRoute('/login'));
  await continueButton(page).click();
  await passwordAndCode(page, ANA.email, { expectPath: '/integration' });
  const logs = page.getByTestId('toggle-audit_logs');
  await flipSwitch(logs);
  await expect(logs).toBeChecked();
  // Its toast closed, so it does not cover the screens shot below.
  await toast(page, 'Services updated.').locator('button').click();
  await expect(toast(page, 'Services updated.')).toHaveCount(0);

  // The policy the first test switched on lists the Hub's classes too.
  await page.goto('/#/settings/approvals');
  await page.getByRole('tab', { name: 'Approval policy' }).click();
  await expect(page.getByTestId('approval-policy').getByLabel('Shorten the event log retention')).toBeChecked();

  // Ana shortens the retention (kept until set, now 30 days): it waits, nothing changed.
  await page.goto('/#/settings/eventlogs');
  const card = page.getByTestId('retention-card');
  await expect(card).toContainText('Events are kept until you set a retention');
  await page.getByTestId('retention-days').fill('30');
  await page.getByTestId('retention-save').click();
  const notice = page.getByTestId('approval-notice');
  await expect(notice).toContainText(/^Waiting for approval by another super admin — requested \d{2}:\d{2}/);
  await expect(toast(page, 'Retention updated')).toHaveCount(0);
  await threeWidths(page, 'approvals-hub-notice');
  await page.reload();
  await expect(card).toContainText('Events are kept until you set a retention');
  await expect(notice).toBeVisible();

  // Ben, in another browser, approves it.
  const ben = await otherBrowser(browser);
  await signIn(ben, BEN.email, { expectPath: '/dashboard' });
  await ben.getByTestId('topbar-approvals').click();
  await expect(ben).toHaveURL(atRoute('/settings/approvals'));
  const request = ben.getByTestId('approval-request').first();
  await expect(request.getByTestId('approval-action')).toHaveText('Shorten the event log retention');
  await expect(request).toContainText(`Requested by ${ANA.name}`);
  await request.getByTestId('approval-approve').click();
  const dialog = ben.getByRole('dialog', { name: 'Approve this change?' });
  await dialog.getByLabel('Comment').fill('Matches the retention policy');
  await dialog.getByTestId('approval-dialog-confirm').click();
  await expect(dialog).toBeHidden();
  await ben.context().close();

  // Approval alone changes nothing at the Hub; Ana's repeat of the same change runs it, once.
  await page.reload();
  await expect(notice).toHaveCount(0);
  await expect(card).toContainText('Events are kept until you set a retention');
  await page.getByTestId('retention-days').fill('30');
  await page.getByTestId('retention-save').click();
  await expect(toast(page, 'Retention updated')).toBeVisible();
  await expect(card).toContainText('Events are kept for 30 days');
  await page.goto('/#/settings');
  await page.getByTestId('settings-card-approvals').click();
  await page.getByRole('tab', { name: 'My requests' }).click();
  const applied = page.getByTestId('approval-request').filter({ hasText: 'Shorten the event log retention' });
  await expect(applied.getByTestId('approval-status')).toHaveText('Applied');
});
