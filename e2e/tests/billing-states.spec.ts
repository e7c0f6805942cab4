import type { Page } from '@playwright/test';
import { atRoute, signIn } from '../support/latchkey.ts';
import { shot } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// Each billing state tells one story on the dashboard, the top bar and /billing (UI.md: a state that
// needs the admin shows on the dashboard and in the top bar). The demo's super admin of each state:
// apps/server/src/features/billing/billing.demo.ts. The grace period is in billing.spec.ts (it pays).

async function atWidths(page: Page, name: string) {
  for (const width of [1280, 375, 320]) await shot(page, name, width);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('ended: a red notice with the day it ended and the way back, a lock instead of "4 of 10", a badge in the top bar, no "Add licences"', async ({
  page,
}) => {
  await signIn(page, 'dana@adatum.example', { expectPath: '/dashboard' });
  const notice = page.getByTestId('billing-notice');
  await expect(notice).toHaveAttribute('data-state', 'ended');
  await expect(notice).toContainText('Subscription ended');
  await expect(page.getByTestId('billing-notice-body')).toHaveText(
    /^Your subscription ended on .+ \d{4}\. Choose a plan to restore access for your members\.$/,
  );
  const card = page.getByTestId('licence-card');
  await expect(card.getByTestId('licence-gauge')).toHaveAttribute('data-reading', 'ended');
  await expect(card.getByTestId('licence-heading')).toHaveText('Licences inactive');
  await expect(card.getByTestId('licence-figures')).toHaveText('4 of 10 licences were in use when the subscription ended.');
  await expect(card).not.toContainText('Active licences');
  const badge = page.getByTestId('topbar-billing');
  await expect(badge).toHaveAttribute('data-state', 'ended');
  await expect(badge).toHaveText('Subscription ended');
  await atWidths(page, 'dashboard-ended');

  // The billing screen tells the same story: ended on that day, no renewal.
  await page.getByTestId('billing-notice-action').click();
  await expect(page).toHaveURL(atRoute('/billing'));
  await expect(page.getByTestId('billing-state')).toHaveText('Ended');
  await expect(page.getByTestId('billing-ended')).toContainText(/ended on .+ \d{4}/);
  await expect(page.getByTestId('billing-renewal')).toHaveText(/^.+ \d{4}$/);
  await expect(page.getByTestId('billing-autorenew-ended')).toHaveText('No renewal: the subscription has ended');
  await expect(page.getByTestId('billing-autorenew')).toHaveCount(0);
  // No licences to add to an ended term (the server refuses them too): the way back is a plan.
  await expect(page.getByTestId('billing-licences')).toBeVisible();
  await expect(page.getByTestId('licences-add-open')).toHaveCount(0);
  await atWidths(page, 'billing-ended');
});

test('benefit, refunded: ended without a renewal date or "Renews automatically"; the benefit programme to contact', async ({
  page,
}) => {
  await signIn(page, 'wendy@woodgrove.example', { expectPath: '/dashboard' });
  await expect(page.getByTestId('billing-notice')).toHaveAttribute('data-state', 'ended');
  await expect(page.getByTestId('billing-notice-body')).toHaveText(
    "Your subscription has ended. Contact your benefit programme's administrator to renew it.",
  );
  // Someone else sells it: nothing to buy here.
  await expect(page.getByTestId('billing-notice-action')).toHaveCount(0);
  await expect(page.getByTestId('licence-heading')).toHaveText('Licences inactive');
  await expect(page.getByTestId('topbar-billing')).toHaveAttribute('data-state', 'ended');
  await atWidths(page, 'dashboard-benefit-ended');

  await page.getByTestId('topbar-billing').click();
  await expect(page).toHaveURL(atRoute('/billing'));
  await expect(page.getByTestId('billing-state')).toHaveText('Ended');
  await expect(page.getByTestId('billing-managed')).toHaveAttribute('data-state', 'ended');
  await expect(page.getByTestId('billing-managed')).toContainText('Subscription ended');
  await expect(page.getByTestId('billing-renewal')).toHaveText('Refunded');
  await expect(page.getByText('Renews automatically')).toHaveCount(0);
  await expect(page.getByTestId('billing-autorenew-ended')).toBeVisible();
  await atWidths(page, 'billing-benefit-ended');
});

test('reseller, unlimited: no notice, no badge; an empty gauge with ∞, not a full one; the dash says why', async ({ page }) => {
  await signIn(page, 'tom@wingtip.example', { expectPath: '/dashboard' });
  const card = page.getByTestId('licence-card');
  await expect(card.getByTestId('licence-gauge')).toHaveAttribute('data-reading', 'unlimited');
  await expect(card.getByTestId('licence-gauge')).not.toContainText('100');
  await expect(card.getByTestId('licence-figures')).toHaveText('30 in use, no limit');
  await expect(page.getByTestId('billing-notice')).toHaveCount(0);
  await expect(page.getByTestId('topbar-billing')).toHaveCount(0);
  await atWidths(page, 'dashboard-unlimited');

  await page.goto('/#/billing');
  await expect(page.getByTestId('billing-state')).toHaveText('Active');
  await expect(page.getByTestId('licences-total')).toHaveText('—');
  await expect(page.getByTestId('licences-total-hint')).toHaveText('Unlimited, as agreed with your reseller');
  await expect(page.getByTestId('licences-available-hint')).toHaveText('Unlimited, as agreed with your reseller');
  await atWidths(page, 'billing-reseller');
});

test('FastSpring, active: no notice and no badge, the gauge counts used of total', async ({ page }) => {
  await signIn(page, 'lee@lucerne.example', { expectPath: '/dashboard' });
  await expect(page.getByTestId('licence-gauge')).toHaveAttribute('data-reading', 'percent');
  await expect(page.getByTestId('licence-heading')).toHaveText('Active licences');
  await expect(page.getByTestId('licence-figures')).toHaveText('10 of 15 licences in use');
  await expect(page.getByTestId('billing-notice')).toHaveCount(0);
  await expect(page.getByTestId('topbar-billing')).toHaveCount(0);
});

async function inLanguage(page: Page, code: string, path: string) {
  await page.evaluate(`localStorage.setItem('latchkey.language', '${code}')`);
  await page.goto(`/#${path}`);
  await page.reload();
}

test("invoices in the admin's language: German words and dates; in Arabic each number and date isolated", async ({ page }) => {
  await signIn(page, 'fiona@proseware.example', { expectPath: '/dashboard' });
  // The seeded overdue renewal is the oldest invoice: the last row, newest first.
  const seeded = page.getByTestId('invoice-row').last().getByTestId('invoice-description');

  await inLanguage(page, 'de', '/billing');
  // The console's one date style: a short month ("24. Nov. 2026").
  await expect(seeded).toHaveText(
    /^Verlängerung von Standard · Monatlich, Lizenzen: 20, \d{1,2}\. \p{L}+\.? \d{4} – \d{1,2}\. \p{L}+\.? \d{4}$/u,
  );
  await expect(page.getByTestId('invoices-table')).not.toContainText(/\d{4}-\d{2}-\d{2}/);
  await atWidths(page, 'billing-invoices-de');

  await inLanguage(page, 'ar', '/billing');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(seeded).toContainText('التراخيص');
  const text = (await seeded.textContent()) ?? '';
  expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  // The licences and both dates, each in its own isolate (FSI … PDI).
  expect(text.match(/\u2068[^\u2069]+\u2069/g)).toHaveLength(3);
  await atWidths(page, 'billing-invoices-ar');
  await inLanguage(page, 'en', '/billing');
});
