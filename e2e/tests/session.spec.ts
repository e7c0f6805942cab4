import type { APIRequestContext } from '@playwright/test';
import { apiPost, apiSignIn } from '../support/api.ts';
import {
  ADMINS,
  atRoute,
  continueButton,
  emailInput,
  FAMILY,
  holdBackRenewals,
  NORTHWIND,
  openProfileMenu,
  passwordAndCode,
  readSession,
  SESSION_KEY,
  sidebarNav,
  signIn,
} from '../support/latchkey.ts';
import { expect, test } from '../support/test.ts';

// Spec §4 Logout reasons, Team switch; §4 and §9 token refresh; §8 401 handling.

/** A call the console makes on every load, with a given access token. */
const teamInfo = (request: APIRequestContext, access: string) =>
  request.post('/api/v1/team/info/', { headers: { authorization: `Bearer ${access}` }, data: {} });

test('logging out from the profile menu says so and ends the session', async ({ page }) => {
  // Only this test's own steps move the clock (the renewal after a logout has its own test).
  await holdBackRenewals(page);
  await signIn(page, ADMINS.adam.email);
  await sidebarNav(page).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(atRoute('/users'));
  const session = await readSession(page);
  expect(session).not.toBeNull();

  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Log out' }).click();

  await expect(page).toHaveURL(atRoute('/login'));
  await expect(page.getByTestId('logout-notice')).toHaveText('You have signed out.');
  await expect(page.getByTestId('logout-notice')).toHaveAttribute('data-reason', 'manual_logout');
  expect(await readSession(page)).toBeNull();
  // The server ended the session too.
  expect((await teamInfo(page.request, session?.token.access ?? '')).status()).toBe(401);

  // The message is shown once, and a manual logout remembers no path: the next sign-in in this
  // browser (another admin's here) lands on the landing page, not on /users.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByTestId('logout-notice')).toHaveCount(0);
  await signIn(page, ADMINS.alex.email, { open: false, expectPath: '/dashboard' });
});

test('a session ended elsewhere sends the admin to /login with the expiry message, then back', async ({ page }) => {
  // The ended session's planned renewal comes due while the admin types the password below.
  await holdBackRenewals(page);
  await signIn(page, ADMINS.ivy.email);
  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page).toHaveURL(atRoute('/profile'));

  // The session is revoked behind the console's back (as another tab or an admin would).
  const session = await readSession(page);
  const signout = await page.request.post('/api/v1/user/signout/', {
    headers: { authorization: `Bearer ${session?.token.access}` },
    data: {},
  });
  expect(signout.status()).toBe(200);

  // The next load makes calls, which the server now refuses.
  await page.reload();
  await expect(page).toHaveURL(atRoute('/login'));
  await expect(page.getByTestId('logout-notice')).toHaveText('Your session has expired. Sign in again to continue.');
  await expect(page.getByTestId('logout-notice')).toHaveAttribute('data-reason', 'session_expired');
  expect(await readSession(page)).toBeNull();

  // The path was remembered: signing in again returns to it, however long the admin takes
  // (here past the moment the ended session would have been renewed).
  await emailInput(page).fill(ADMINS.ivy.email);
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  await page.clock.fastForward('01:30');
  await passwordAndCode(page, ADMINS.ivy.email, { expectPath: '/profile' });
  await expect(page.getByTestId('page-profile')).toBeVisible();
});

test('an admin the server answers 403 while the session lives is signed out', async ({ page }) => {
  // Dana, a super admin (security demo), has the administrators screen open.
  const dana = 'dana@northwind.example';
  await signIn(page, dana);
  await page.goto('/#/settings/manage-administrators');
  await expect(page.getByTestId('administrators')).toBeVisible();

  // Alex, another super admin, makes her a plain admin: her session lives on, her rights do not.
  const auth = { authorization: `Bearer ${await apiSignIn(ADMINS.alex.email, NORTHWIND.slug)}` };
  const setDana = (scopes: string[]) =>
    apiPost('/api/v1/team/admin/eligibility/', { email: dana, scopes, eligible_scopes: [] }, auth);
  try {
    expect((await setDana(['admin'])).status).toBe(200);
    // Her next call on the screen is refused with 403, and the console signs her out.
    const refused = page.waitForResponse((r) => r.url().includes('/api/v1/team/admin/members/') && r.status() === 403);
    await page.getByLabel('Search administrators').fill('alex');
    await refused;
    await expect(page).toHaveURL(atRoute('/login'));
    await expect(page.getByTestId('logout-notice')).toHaveAttribute('data-reason', 'session_expired');
    await expect(page.getByTestId('logout-notice')).toHaveText('Your session has expired. Sign in again to continue.');
    expect(await readSession(page)).toBeNull();
  } finally {
    await setDana(['super_admin']);
  }
});

test('the session-expired message is shown once', async ({ page }) => {
  // Only this test's own steps move the clock (the renewal after a logout has its own test).
  await holdBackRenewals(page);
  await signIn(page, ADMINS.rory.email);
  const session = await readSession(page);
  await page.request.post('/api/v1/user/signout/', {
    headers: { authorization: `Bearer ${session?.token.access}` },
    data: {},
  });
  // The console's own sign-out is the last call of a logout: once it is answered, every refused call has settled.
  const consoleSignedOut = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/user/signout/') && r.request().method() === 'POST',
  );
  await page.reload();
  await expect(page.getByTestId('logout-notice')).toHaveAttribute('data-reason', 'session_expired');

  // The message is not kept for the next visit to /login.
  await consoleSignedOut;
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByTestId('logout-notice')).toHaveCount(0);
  expect(await page.evaluate<string | null>(`sessionStorage.getItem('latchkey.logoutReason')`)).toBeNull();
});

test("after signing out, the old session's renewal does not interrupt the next sign-in", async ({ page }) => {
  // The old session's planned renewal comes due only when the clock is moved on below.
  await holdBackRenewals(page);
  await signIn(page, ADMINS.rory.email);
  const session = await readSession(page);
  // When the signed-in console planned to renew its access token (the spec's two-minute margin).
  const renewalDue = (session?.token.expires_at ?? 0) - 120_000;

  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page.getByTestId('logout-notice')).toHaveText('You have signed out.');

  // The admin starts signing in again and is on the password step when that moment passes.
  await emailInput(page).fill(ADMINS.rory.email);
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  const browserNow = await page.evaluate<number>('Date.now()');
  await page.clock.fastForward(Math.max(0, renewalDue - browserNow) + 5_000);

  // Nobody is signed in, so there is nothing to renew and no session to declare expired.
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  await expect(page.getByTestId('logout-notice')).toHaveCount(0);
  expect(await page.evaluate<string | null>(`sessionStorage.getItem('latchkey.logoutReason')`)).toBeNull();
  await passwordAndCode(page, ADMINS.rory.email);
});

test('the access token is renewed before it expires without leaving the page', async ({ page }) => {
  test.slow();
  await signIn(page, ADMINS.adam.email);
  await sidebarNav(page).getByRole('link', { name: 'Policy' }).click();
  await expect(page).toHaveURL(atRoute('/policies'));
  const before = await readSession(page);
  const access = before?.token.access ?? '';

  // ACCESS_TOKEN_TTL_SECONDS=130 and the two-minute margin: the renewal is due ~10 s after sign-in.
  await expect
    .poll(async () => (await readSession(page))?.token.access, { timeout: 25_000, intervals: [1_000] })
    .not.toBe(access);
  const after = await readSession(page);
  expect(after?.token.refresh_token).not.toBe(before?.token.refresh_token);
  expect(after?.token.expires_at).toBeGreaterThan(before?.token.expires_at ?? 0);
  expect(after?.email).toBe(ADMINS.adam.email);
  // Still on the same page, still signed in.
  await expect(page).toHaveURL(atRoute('/policies'));
  await expect(page.getByTestId('page-policies')).toBeVisible();

  // Further navigation, and a full load that calls the server, work with the renewed tokens.
  await sidebarNav(page).getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(atRoute('/users'));
  await page.reload();
  await expect(page).toHaveURL(atRoute('/users'));
  await expect(page.getByTestId('page-users')).toBeVisible();
  await expect(page.getByTestId('team-name')).toHaveText(NORTHWIND.name);
  expect((await teamInfo(page.request, after?.token.access ?? '')).status()).toBe(200);
});

test('switching teams signs out without a message and signs in to the chosen team', async ({ page }) => {
  // The first team's planned renewal comes due while the admin types the password below.
  await holdBackRenewals(page);
  await signIn(page, ADMINS.sam.email, { team: NORTHWIND.name, expectPath: '/dashboard' });
  await expect(page.getByTestId('team-name')).toHaveText(NORTHWIND.name);
  const first = await readSession(page);
  expect(first?.team_slug).toBe(NORTHWIND.slug);

  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Switch teams' }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch teams' });
  await expect(dialog).toBeVisible();
  // Only the other team is offered.
  await expect(dialog.getByRole('radio')).toHaveCount(1);
  // The only choice is chosen, and the words fit every way a team signs in (password, code, SSO).
  await expect(dialog.getByRole('radio', { name: FAMILY.name })).toBeChecked();
  await expect(
    dialog.getByText('You will be signed out of this team and asked to sign in to the team you choose.'),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Switch team' }).click();

  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  await expect(page.getByTestId('login-email')).toHaveText(`${ADMINS.sam.email} · ${FAMILY.name}`);
  // Reason team_switch: no logout message, the session is gone here and on the server.
  await expect(page.getByTestId('logout-notice')).toHaveCount(0);
  expect(await page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(SESSION_KEY)})`)).toBeNull();
  expect(await page.evaluate<string | null>(`sessionStorage.getItem('latchkey.logoutReason')`)).toBeNull();
  expect((await teamInfo(page.request, first?.token.access ?? '')).status()).toBe(401);

  await page.clock.fastForward('01:30');
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  await passwordAndCode(page, ADMINS.sam.email, { expectPath: '/dashboard' });
  await expect(page.getByTestId('team-name')).toHaveText(FAMILY.name);
  expect((await readSession(page))?.team_slug).toBe(FAMILY.slug);
});
