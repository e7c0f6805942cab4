import { ADMINS, FAMILY, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

test('dashboard: team, licences, adoption and provisioning from the demo data; adoption segment opens filtered users', async ({
  page,
}) => {
  await signIn(page, ADMINS.alex.email);
  const dashboard = page.getByTestId('dashboard');
  await expect(dashboard.getByTestId('dashboard-team-name')).toHaveText('Northwind Traders');
  await expect(dashboard.getByTestId('total-users')).toHaveText(/Total users: \d{3}/);
  await expect(dashboard.getByTestId('licence-gauge')).toBeVisible();
  await expect(dashboard.getByTestId('licence-figures')).toHaveText(/\d+ of \d+ licences in use/);
  await expect(dashboard.getByText('Active licences')).toBeVisible();
  await expect(dashboard.getByTestId('adoption-active')).toContainText('Actively using app');
  await expect(dashboard.getByTestId('adoption-inactive')).toContainText('Not using app');
  await expect(dashboard.getByTestId('adoption-unresponsive')).toContainText('Never used app');
  await expect(dashboard.getByTestId('provisioning-legend')).toContainText('Onboarded');
  await expect(dashboard.getByTestId('provisioning-legend')).toContainText('Deboarded');
  // A text equivalent of the chart: one row per month.
  await expect(dashboard.locator('table caption', { hasText: 'Provisioning by month' })).toHaveCount(1);
  await expect(dashboard.locator('table tbody tr')).toHaveCount(12);
  await expect(dashboard.getByTestId('policy-card')).toBeVisible();
  // The super admin has a password: no set-password card. The logo button leads to branding.
  await expect(dashboard.getByTestId('set-password-card')).toHaveCount(0);
  await expect(dashboard.getByTestId('logo-button')).toHaveAttribute('href', /organization-branding/);
  await expect(page.getByTestId('trial-banner')).toHaveCount(0);
  await shots(page, 'people-dashboard');

  const inactive = (await dashboard.getByTestId('adoption-inactive').textContent()) ?? '';
  const expected = Number(/([\d,]+) ·/.exec(inactive)?.[1]?.replace(/,/g, ''));
  await dashboard.getByTestId('adoption-inactive').click();
  await expect(page).toHaveURL(/#\/users$/);
  const chip = page.getByTestId('chip-usage-inactive');
  await expect(chip).toHaveText('App usage: Not using app');
  const rows = page.getByTestId('member-row');
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.allTextContents()) expect(text).toContain('Not using app');
  await expect(page.getByTestId('members-range')).toHaveText(new RegExp(`of ${expected.toLocaleString('en-US')}$`));
  // The preset filter is removable.
  await chip.getByRole('button').click();
  await expect(page.getByTestId('filter-chips')).toHaveCount(0);
  await expect(rows.filter({ hasText: 'Actively using app' }).first()).toBeVisible();
});

test('dashboard: an admin scope sees an inert logo and the same figures', async ({ page }) => {
  await signIn(page, ADMINS.adam.email);
  const logo = page.getByTestId('logo-button');
  await expect(logo).toHaveAttribute('aria-disabled', 'true');
  await expect(logo).not.toHaveAttribute('href', /.*/);
  await expect(page.getByTestId('adoption-active')).toBeVisible();
});

test('family dashboard: licence cards, trial banner, the popup once a day, rename needs a family name', async ({ page }) => {
  await signIn(page, ADMINS.sam.email, { team: FAMILY.name });
  const popup = page.getByTestId('trial-popup');
  await expect(popup).toBeVisible();
  await expect(popup).toContainText('Days left in your trial: 2');
  const banner = page.getByTestId('trial-banner');
  await expect(banner).toHaveAttribute('data-level', 'info');
  await expect(banner.getByRole('link', { name: 'Upgrade' })).toHaveAttribute('href', '#/billing');
  await shots(page, 'people-family-popup');
  await page.getByRole('button', { name: 'Later' }).click();
  await expect(popup).toBeHidden();

  const cards = page.getByTestId('family-licence-cards');
  await expect(cards).toContainText('Licences in your plan6');
  await expect(cards).toContainText('Licences in use3');
  await expect(cards).toContainText('Licences available3');
  await shots(page, 'people-family-dashboard');

  // At most once a day: a reload does not bring it back.
  await page.reload();
  await expect(page.getByTestId('trial-banner')).toBeVisible();
  await expect(page.getByTestId('trial-popup')).toHaveCount(0);

  await page.getByTestId('rename-family').click();
  const dialog = page.getByRole('dialog', { name: 'Rename your family' });
  const name = dialog.getByLabel('Family name');
  await expect(name).toHaveValue(FAMILY.name);
  await name.fill('   ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Enter a family name')).toBeVisible();
  await shots(page, 'people-family-rename');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('dashboard-team-name')).toHaveText(FAMILY.name);
});

test('the Arabic (right-to-left) provisioning chart: the y-axis figures clear the first points, no month label is cut', async ({
  page,
}) => {
  await signIn(page, ADMINS.alex.email);
  await page.evaluate(`localStorage.setItem('latchkey.language', 'ar')`);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const chart = page.getByTestId('provisioning-chart');
  await expect(chart).toBeVisible();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await chart.scrollIntoViewIfNeeded();
    const box = await chart.boundingBox();
    if (!box) throw new Error('no chart');
    const boxes = async (id: string) =>
      Promise.all((await chart.getByTestId(id).all()).map(async (l) => (await l.boundingBox()) ?? box));
    const points = await boxes('provisioning-point');
    const firstPointLeft = Math.min(...points.map((p) => p.x));
    for (const tick of await boxes('provisioning-tick')) {
      expect(tick.x + tick.width, `y-axis figure at ${width} px`).toBeLessThanOrEqual(firstPointLeft);
      expect(tick.x).toBeGreaterThanOrEqual(box.x - 0.5);
    }
    const months = (await boxes('provisioning-month')).filter((m) => m.width > 0);
    expect(months.length).toBeGreaterThan(1);
    for (const month of months) {
      expect(month.x, `month label at ${width} px`).toBeGreaterThanOrEqual(box.x - 0.5);
      expect(month.x + month.width, `month label at ${width} px`).toBeLessThanOrEqual(box.x + box.width + 0.5);
    }
    // No two month labels touch.
    const byX = [...months].sort((a, b) => a.x - b.x);
    for (let i = 1; i < byX.length; i++) {
      const [prev, next] = [byX[i - 1], byX[i]];
      if (prev && next) expect(prev.x + prev.width, `month labels overlap at ${width} px`).toBeLessThan(next.x);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await shots(page, 'people-dashboard-ar');
});
