import { ADMINS, atRoute, sidebarNav, signIn } from '../support/latchkey.ts';
import { expect, test } from '../support/test.ts';

// Spec §2 Route table and Route guard, §4 Landing page.

test('an integrator lands on Integration, and /dashboard sends them back there', async ({ page }) => {
  await signIn(page, ADMINS.ivy.email, { expectPath: '/integration' });
  await expect(page.getByTestId('page-integration')).toBeVisible();
  const nav = sidebarNav(page);
  await expect(nav.getByRole('link', { name: 'Integration' })).toBeVisible();
  for (const name of ['Dashboard', 'Users', 'Groups', 'Policy', 'Billing']) {
    await expect(nav.getByRole('link', { name, exact: true })).toHaveCount(0);
  }

  await page.goto('/#/dashboard');
  await expect(page).toHaveURL(atRoute('/integration'));
  await expect(page.getByTestId('page-integration')).toBeVisible();
});

test('a recovery agent lands on Recovery', async ({ page }) => {
  await signIn(page, ADMINS.rory.email, { expectPath: '/recovery' });
  await expect(page.getByTestId('page-recovery')).toBeVisible();
  await expect(sidebarNav(page).getByRole('link', { name: 'Recovery' })).toBeVisible();
  await expect(sidebarNav(page).getByRole('link', { name: 'Dashboard' })).toHaveCount(0);

  await page.goto('/#/users');
  await expect(page).toHaveURL(atRoute('/recovery'));
});

test('an admin has no Billing, and /billing sends them to the dashboard', async ({ page }) => {
  await signIn(page, ADMINS.adam.email, { expectPath: '/dashboard' });
  const nav = sidebarNav(page);
  await expect(nav.getByRole('link', { name: 'Users' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Billing' })).toHaveCount(0);

  await page.goto('/#/billing');
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await expect(page.getByTestId('page-dashboard')).toBeVisible();
  await expect(page.getByTestId('page-billing')).toHaveCount(0);
});

test('a super admin opens Billing; unknown paths and /login go to the landing page', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  await sidebarNav(page).getByRole('link', { name: 'Billing' }).click();
  await expect(page).toHaveURL(atRoute('/billing'));
  await expect(page.getByTestId('page-billing').getByRole('heading', { name: 'Billing' })).toBeVisible();

  await page.goto('/#/nope');
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await expect(page.getByTestId('page-dashboard')).toBeVisible();

  // The same after a full load of an unknown path.
  await page.goto('/#/nope/deeper');
  await page.reload();
  await expect(page).toHaveURL(atRoute('/dashboard'));

  // Signed in, the sign-in screens send the admin to '/', that is the landing page.
  await page.goto('/#/login');
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await page.goto('/#/login/verify-otp');
  await expect(page).toHaveURL(atRoute('/dashboard'));
  await expect(page.getByTestId('sidebar')).toBeVisible();
});

test('signed out, /settings goes to /login and signing in returns to /settings', async ({ page }) => {
  await page.goto('/#/settings');
  await expect(page).toHaveURL(atRoute('/login'));
  // Not a sign-out: no logout message.
  await expect(page.getByTestId('logout-notice')).toHaveCount(0);

  // Settings is open to every role; the integrator would otherwise land on /integration.
  await signIn(page, ADMINS.ivy.email, { open: false, expectPath: '/settings' });
  await expect(page.getByTestId('page-settings').getByRole('heading', { name: 'Settings' })).toBeVisible();
});

// A bookmarked screen the role may not open: the guard decides before any screen asks for its data
// (the cold load's prefetch included), so the servers answer no call with 403.
for (const [who, bookmark, landing] of [
  ['ivy', '/dashboard', '/integration'],
  ['ivy', '/users', '/integration'],
  ['rory', '/users', '/recovery'],
  ['rory', '/dashboard', '/recovery'],
  ['adam', '/billing', '/dashboard'],
] as const) {
  test(`${ADMINS[who].name} (${ADMINS[who].scope}) opening a bookmarked ${bookmark} is sent to ${landing} without a forbidden call`, async ({
    page,
  }) => {
    await signIn(page, ADMINS[who].email, { expectPath: landing });
    await page.goto('about:blank');
    const forbidden: string[] = [];
    const answered: string[] = [];
    page.on('response', (response) => {
      answered.push(response.url());
      if (response.status() === 403) forbidden.push(`${response.request().method()} ${response.url()}`);
    });
    await page.goto(`/#${bookmark}`);
    await expect(page).toHaveURL(atRoute(landing));
    await expect(page.getByTestId(`page-${landing.slice(1)}`)).toBeVisible();
    await page.waitForLoadState('networkidle');
    // The landing page's own calls were made (the recording works), and none was refused.
    expect(answered.some((url) => url.includes('/api/'))).toBe(true);
    expect(forbidden).toEqual([]);
  });
}
