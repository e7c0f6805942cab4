import { memberApp } from '../support/hub-client.ts';
import { ADMINS, atRoute, sidebarNav, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

test('security audit: the vault health table sorts and pages, and opens a member summary', async ({ page }) => {
  // A member's app reports a compromised vault through the ingestion API.
  const app = await memberApp('zoe.brooks@northwind.example');
  await app.call('/api/v1/client/vault/summary/', { total_items: 80, weak: 9, reused: 4, old: 12, compromised: 3, score: 12 });

  await signIn(page, ADMINS.alex.email);
  await sidebarNav(page).getByRole('link', { name: 'Security Audit' }).click();
  await expect(page).toHaveURL(atRoute('/audit'));
  const rows = page.getByTestId('audit-row');
  await expect(rows).toHaveCount(10);
  await expect(page.getByTestId('table-total')).toHaveText('1–10 of 27');
  // Worst score first by default: the member who just reported leads.
  await expect(rows.first()).toHaveAttribute('data-email', 'zoe.brooks@northwind.example');
  await expect(rows.first().getByTestId('score-badge')).toHaveText('12 · At risk');
  // At 1280 px every column is in view: the table does not scroll sideways, the last column is whole.
  const table = page.getByTestId('audit-table');
  const fit = await table.evaluate((el) => {
    const scroller = el.parentElement?.closest('[class*="ScrollArea-viewport"], [class*="ScrollContainer"]') ?? el.parentElement;
    const last = el.querySelector('thead th:last-child')?.getBoundingClientRect();
    const box = (scroller as HTMLElement).getBoundingClientRect();
    return { overflow: el.scrollWidth - (scroller as HTMLElement).clientWidth, lastRight: last?.right ?? 0, right: box.right };
  });
  expect(fit.overflow).toBeLessThanOrEqual(1);
  expect(fit.lastRight).toBeLessThanOrEqual(fit.right + 1);
  await shots(page, 'hub-audit');

  // Sorting by score again reverses the order; page 2 holds the next ten.
  await page.getByRole('button', { name: /^Score/ }).click();
  await expect(page.getByRole('columnheader', { name: /Score/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.first()).not.toHaveAttribute('data-email', 'zoe.brooks@northwind.example');
  await page.getByRole('button', { name: '2', exact: true }).click();
  await expect(rows).toHaveCount(10);
  await page.getByRole('button', { name: '3', exact: true }).click();
  await expect(rows).toHaveCount(7);
  await expect(rows.last()).toHaveAttribute('data-email', 'zoe.brooks@northwind.example');

  // Search, then open the member's vault summary.
  await page.getByLabel('Search by member email').fill('zoe.brooks');
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('link', { name: 'zoe.brooks@northwind.example' }).click();
  await expect(page).toHaveURL(/#\/vault\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('vault-email')).toHaveText('zoe.brooks@northwind.example');
  await expect(page.getByTestId('vault-score')).toHaveText('12');
  await expect(page.getByTestId('vault-compromised')).toHaveText('3');
  await expect(page.getByTestId('vault-devices')).toContainText('E2E laptop');
  // The summary belongs to the security audit, so that item stays the current one.
  await expect(sidebarNav(page).getByRole('link', { name: 'Security Audit' })).toHaveAttribute('data-active', 'true');
  await shots(page, 'hub-vault-summary');
  await page.getByRole('link', { name: /Back to Security Audit/ }).click();
  await expect(page).toHaveURL(atRoute('/audit'));
});
