import { readFile } from 'node:fs/promises';
import { pdfText } from '@latchkey/runtime/testing';
import type { Page } from '@playwright/test';
import { atRoute, signIn } from '../support/latchkey.ts';
import { shot, shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// Billing demo teams (apps/server/src/features/billing/billing.demo.ts), one super admin each.
const NORTHWIND_ALEX = 'alex@northwind.example';
const PROSEWARE = 'fiona@proseware.example';

async function openBilling(page: Page, email: string) {
  await signIn(page, email, { expectPath: '/dashboard' });
  await page.goto('/#/billing');
  await expect(page).toHaveURL(atRoute('/billing'));
  await expect(page.getByTestId('billing')).toBeVisible();
}

const STATES = [
  { email: NORTHWIND_ALEX, state: 'Active', plan: 'Enterprise · Yearly', managed: false, total: /\d+/ },
  {
    email: 'dana@adatum.example',
    state: 'Ended',
    plan: 'Starter · Yearly',
    managed: false,
    total: '10',
    notice: 'billing-ended',
  },
  {
    email: 'tom@wingtip.example',
    state: 'Active',
    plan: 'Enterprise · Yearly',
    managed: true,
    total: '—',
    notice: 'billing-managed',
  },
  {
    email: 'wendy@woodgrove.example',
    state: 'Ended',
    plan: 'Standard · Yearly',
    managed: true,
    total: '25',
    notice: 'billing-managed',
  },
  { email: 'lee@lucerne.example', state: 'Active', plan: 'Standard · Yearly', managed: false, total: '15' },
] as const;

for (const s of STATES) {
  test(`subscription state from the seeded team of ${s.email}: ${s.state}${s.managed ? ', managed' : ''}`, async ({ page }) => {
    await openBilling(page, s.email);
    await expect(page.getByTestId('billing-state')).toHaveText(s.state);
    await expect(page.getByTestId('billing-plan')).toHaveText(s.plan);
    await expect(page.getByTestId('licences-total')).toHaveText(s.total);
    if ('notice' in s) await expect(page.getByTestId(s.notice)).toBeVisible();
    // A managed team sees who manages it, and no purchase action at all; an ended one cannot add licences.
    await expect(page.getByTestId('licences-add-open')).toHaveCount(s.managed || s.state === 'Ended' ? 0 : 1);
    await expect(page.getByTestId('billing-plans')).toHaveCount(s.managed ? 0 : 1);
    if (s.email === NORTHWIND_ALEX) {
      // Plans in spec order with prices in the team currency and the yearly saving.
      await page.getByTestId('plans-frequency').getByText('Yearly').click();
      await expect(page.getByTestId('plan-card')).toHaveCount(3);
      await expect(page.getByTestId('plan-card').nth(0)).toHaveAttribute('data-plan', 'starter-12');
      await expect(page.getByTestId('plan-card').nth(1)).toHaveAttribute('data-plan', 'standard-12');
      await expect(page.getByTestId('plan-card').nth(2)).toHaveAttribute('data-plan', 'enterprise-12');
      await expect(page.getByTestId('plan-card').nth(1).getByTestId('plan-price')).toHaveText('$72.00');
      await expect(page.getByTestId('plan-card').nth(1).getByTestId('plan-saving')).toHaveText('Save $12.00 a year');
      await shots(page, 'billing-active');
    }
    if (s.email === 'tom@wingtip.example') await shots(page, 'billing-managed');
  });
}

test('grace period team: add licences with the quote, refuse bad quantities, mark paid, remove, switch to yearly, download a PDF', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Before anyone opens /billing, the dashboard and the top bar say an invoice is overdue and until when.
  await signIn(page, PROSEWARE, { expectPath: '/dashboard' });
  await expect(page.getByTestId('billing-notice')).toHaveAttribute('data-state', 'grace');
  await expect(page.getByTestId('billing-notice-body')).toHaveText(
    /^A payment is overdue\. Pay the open invoice before .+ \d{4} to keep your subscription\.$/,
  );
  await expect(page.getByTestId('topbar-billing')).toHaveAttribute('data-state', 'grace');
  await expect(page.getByTestId('topbar-billing')).toHaveText('Payment overdue');
  for (const width of [1280, 375, 320]) await shot(page, 'dashboard-grace', width);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByTestId('billing-notice-action').click();
  await expect(page).toHaveURL(atRoute('/billing'));
  await expect(page.getByTestId('billing')).toBeVisible();
  await expect(page.getByTestId('billing-state')).toHaveText('In grace period');
  await expect(page.getByTestId('billing-grace')).toBeVisible();
  await expect(page.getByTestId('licences-total')).toHaveText('20');
  await expect(page.getByTestId('licences-in-use')).toHaveText('12');
  await shots(page, 'billing-grace');

  // Add licences: bad quantities are refused with their message; a good one gets the server's quote.
  await page.getByTestId('licences-add-open').click();
  const quantity = page.getByTestId('licences-add-quantity');
  await quantity.fill('0');
  await expect(page.getByTestId('licences-add-dialog')).toContainText('Enter at least 1.');
  await quantity.fill('');
  await quantity.pressSequentially('4e+-.');
  await expect(quantity).toHaveValue('4');
  await quantity.fill('490');
  await expect(page.getByTestId('licences-add-dialog')).toContainText('You can add at most 480 licences (500 in all).');
  await expect(page.getByTestId('licences-add-confirm')).toBeDisabled();
  await quantity.fill('5');
  await expect(page.getByTestId('quote-per-licence')).toHaveText('$7.00');
  await expect(page.getByTestId('quote-pro-rated')).toHaveText(/^\$\d+\.\d{2}$/);
  await shots(page, 'billing-add-licences', { fullPage: false });
  await page.getByTestId('licences-add-confirm').click();
  await expect(page.getByTestId('licences-add-dialog')).toHaveCount(0);
  await expect(page.getByTestId('licences-on-order')).toHaveText('5');
  await expect(page.getByTestId('licences-total')).toHaveText('20');

  // Mark the new manual invoice paid: the licences are applied.
  const openRows = page.locator('[data-testid="invoice-row"][data-state="open"]');
  await expect(openRows).toHaveCount(2);
  const newest = page.getByTestId('invoice-row').first();
  await newest.getByRole('button').click();
  await page.getByTestId('invoice-mark-paid').click();
  await page.getByTestId('invoice-paid-confirm').click();
  await expect(page.getByTestId('licences-total')).toHaveText('25');
  await expect(page.getByTestId('licences-on-order')).toHaveText('0');
  await expect(newest).toHaveAttribute('data-state', 'paid');

  // Remove licences: never below those in use.
  await page.getByTestId('licences-remove-open').click();
  const remove = page.getByTestId('licences-remove-quantity');
  await remove.fill('14');
  await expect(page.getByTestId('licences-remove-dialog')).toContainText('12 licences are in use: you can remove at most 13.');
  await expect(page.getByTestId('licences-remove-confirm')).toBeDisabled();
  await remove.fill('3');
  await expect(page.getByTestId('licences-after-removal')).toHaveText('Licences after removal: 22');
  await page.getByTestId('licences-remove-confirm').click();
  await expect(page.getByTestId('licences-total')).toHaveText('22');

  // The saving-plan switch: monthly → yearly, the pro-rated difference shown before confirming.
  await page.getByTestId('saving-plan-switch').click();
  const dialog = page.getByTestId('plan-change-dialog');
  await expect(page.getByRole('dialog', { name: 'Change to Standard · Yearly?' })).toBeVisible();
  await expect(page.getByTestId('plan-quote-charge')).toHaveText('$1,584.00');
  await expect(page.getByTestId('plan-quote-due')).toHaveText(/^\$1,\d{3}\.\d{2}$/);
  await shots(page, 'billing-plan-change', { fullPage: false });
  await page.getByTestId('plan-change-confirm').click();
  await expect(dialog).toHaveCount(0);
  const planInvoice = page.getByTestId('invoice-row').first();
  await expect(planInvoice).toHaveAttribute('data-state', 'open');
  await planInvoice.getByRole('button').click();
  await page.getByTestId('invoice-mark-paid').click();
  await page.getByTestId('invoice-paid-confirm').click();
  await expect(page.getByTestId('billing-plan')).toHaveText('Standard · Yearly');
  await expect(page.getByTestId('saving-plan')).toHaveCount(0);

  // Paying the overdue invoice ends the grace period.
  const overdue = page.locator('[data-testid="invoice-row"][data-state="open"]');
  await expect(overdue).toHaveCount(1);
  await overdue.getByRole('button').click();
  await page.getByTestId('invoice-mark-paid').click();
  await page.getByTestId('invoice-paid-confirm').click();
  await expect(page.getByTestId('billing-state')).toHaveText('Active');
  // The top bar forgets the overdue invoice at once.
  await expect(page.getByTestId('topbar-billing')).toHaveCount(0);

  // An invoice's PDF, made on the server, says what it is for and to whom.
  const number = await page.getByTestId('invoice-row').first().getAttribute('data-number');
  await page.getByTestId('invoice-row').first().getByRole('button').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('invoice-download').click()]);
  expect(download.suggestedFilename()).toBe(`${number}.pdf`);
  const text = pdfText(await readFile((await download.path()) as string));
  expect(text).toContain(`Invoice ${number}`);
  expect(text).toContain('Proseware (grace period)');
  expect(text).toContain('billing@proseware.example');
  expect(text).toContain('Standard yearly plan, 22 licences');
  expect(text).toContain('Credit for the unused Standard monthly term');
  expect(text).toMatch(/Total: \$1,\d{3}\.\d{2}/);
  await shots(page, 'billing-after');
});

test("family trial: the banner's upgrade link opens /billing with the trial and the plans that convert it", async ({ page }) => {
  await signIn(page, 'sam@northwind.example', { team: 'The Okafor Family' });
  // The expiry popup comes first on a new browser (people-dashboard.spec.ts is its subject).
  await expect(page.getByTestId('trial-popup')).toBeVisible();
  await page.getByRole('button', { name: 'Later' }).click();
  await page.getByTestId('trial-banner').getByRole('link', { name: 'Upgrade' }).click();
  await expect(page).toHaveURL(atRoute('/billing'));
  await expect(page.getByTestId('billing-state')).toHaveText('Trial');
  await expect(page.getByTestId('billing-trial')).toBeVisible();
  const starter = page.getByTestId('plan-card').first();
  await expect(starter).toHaveAttribute('data-plan', 'starter-1');
  await expect(starter.getByTestId('plan-price')).toHaveText('€4.00');
  await expect(starter.getByTestId('plan-choose')).toHaveText('Choose this plan');
  // Converting quotes a whole new term, nothing credited (the conversion itself: billing.test.ts).
  await page.getByTestId('plan-card').nth(1).getByTestId('plan-choose').click();
  await expect(page.getByRole('dialog', { name: 'Buy Standard · Monthly?' })).toBeVisible();
  await expect(page.getByTestId('plan-quote-credit')).toHaveText('− €0.00');
  await shots(page, 'billing-trial', { fullPage: false });
  await page.getByRole('button', { name: 'Cancel' }).click();
});
