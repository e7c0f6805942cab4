import { randomUUID } from 'node:crypto';
import { apiPost, apiSignIn } from '../support/api.ts';
import {
  ADMINS,
  atRoute,
  continueButton,
  emailInput,
  enterCode,
  FAMILY,
  openProfileMenu,
  readSession,
} from '../support/latchkey.ts';
import { latestCode, mailCursor, messagesTo, withMailLock } from '../support/mail.ts';
import { shot, shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/** The SSO demo team (apps/server/src/features/auth/sign-in.demo.ts). */
const OLGA = 'olga@contoso.example';
const ENZO = 'enzo@contoso.example';
const PIA = 'pia@contoso.example';

test('family/{token}: the family app’s one-time token signs its owner in; used again, it logs out with app_initiated_login_failed', async ({
  page,
}) => {
  // The family app, signed in as Sam on another device, asks the server for a console link.
  const app = await apiSignIn(ADMINS.sam.email, FAMILY.slug);
  const minted = await apiPost<{ token: string }>('/api/v1/app/console/login/token/', {}, { authorization: `Bearer ${app}` });
  expect(minted.status).toBe(200);

  await page.goto(`/#/family/${minted.body.token}`);
  await expect(page).toHaveURL(atRoute('/dashboard'));
  expect((await readSession(page))?.team_slug).toBe(FAMILY.slug);
  // The family team is in its trial: its popup comes first.
  await page.getByRole('dialog').getByRole('button', { name: 'Later' }).click();

  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(atRoute('/login'));

  // The token was spent: the server answers 401, and the console logs out with the spec's reason.
  await page.goto(`/#/family/${minted.body.token}`);
  await expect(page).toHaveURL(atRoute('/login'));
  const notice = page.getByTestId('logout-notice');
  await expect(notice).toHaveAttribute('data-reason', 'app_initiated_login_failed');
  await expect(notice).toHaveText('Authentication failed. Sign in again.');
  await shots(page, 'family-login-failed');
  // After signing in again, the console does not send the admin back to the spent link.
  expect(await page.evaluate<string | null>("sessionStorage.getItem('latchkey.returnTo')")).toBeNull();
});

test('SSO: the choice page for an emailed-code admin, SSO refused without IdP metadata, then a code signs in', async ({
  page,
}) => {
  // The step's guard: nothing known yet, so back to /login.
  await page.goto('/#/login/sso-otp-choice');
  await expect(page).toHaveURL(atRoute('/login'));

  await emailInput(page).fill(OLGA);
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/sso-otp-choice'));
  await expect(page.getByRole('heading', { name: 'Choose how to sign in' })).toBeVisible();
  await expect(page.getByTestId('login-email')).toHaveText(`${OLGA} · Contoso Ltd`);
  await shots(page, 'login-sso-otp-choice');

  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await expect(page.getByRole('alert')).toContainText('no identity provider metadata');
  await expect(page).toHaveURL(atRoute('/login/sso-otp-choice'));

  await withMailLock(OLGA, async () => {
    const after = await mailCursor();
    await page.getByRole('button', { name: 'Sign in another way' }).click();
    await expect(page).toHaveURL(atRoute('/login/verify-otp'));
    await enterCode(page, await latestCode(OLGA, { after }));
  });
  await expect(page).toHaveURL(atRoute('/dashboard'));
  expect((await readSession(page))?.team_slug).toBe('contoso');
});

test('a password admin of an SSO team gets an SSO button beside the password', async ({ page }) => {
  await page.goto('/#/login');
  await emailInput(page).fill(PIA);
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await expect(page.getByRole('alert')).toContainText('no identity provider metadata');
  await shots(page, 'login-password-sso');
});

test('SSO enforced: the console starts SSO at once and shows why it cannot', async ({ page }) => {
  await page.goto('/#/login');
  await emailInput(page).fill(ENZO);
  await continueButton(page).click();
  await expect(page.getByRole('alert')).toContainText('no identity provider metadata');
  await expect(page).toHaveURL(atRoute('/login'));
});

test('the sso return page: no query goes to /, an error shows its code, a token that never signs in ends in 45038', async ({
  page,
}) => {
  await page.goto('/#/sso');
  // '/' without a session is the login page.
  await expect(page).toHaveURL(atRoute('/login'));

  await page.goto('/#/sso?sso_status=failed&response_key=45032');
  const error = page.getByTestId('sso-error');
  await expect(error.getByRole('heading', { name: 'Error: 45032' })).toBeVisible();
  await expect(error.getByTestId('sso-error-text')).toHaveText(
    'The email from your identity provider does not match the one you entered.',
  );
  await expect(error).toContainText("ask your super admin to check the SSO connector's settings");
  await shots(page, 'sso-error');
  await error.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page).toHaveURL(atRoute('/login'));

  // A success whose token the server never accepts: five tries a second apart, then 45038.
  const started = Date.now();
  await page.goto(`/#/sso?sso_status=success&token=${'x'.repeat(43)}`);
  await expect(page.getByTestId('sso-verifying')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Error: 45038' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('sso-error-text')).toHaveText('Authentication failed.');
  expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
});

test('verify-password needs the earlier steps, unless SSO callback parameters are present (spec §2 guards)', async ({ page }) => {
  // Nothing known yet: back to the email step.
  await page.goto('/#/login/verify-password');
  await expect(page).toHaveURL(atRoute('/login'));

  // An identity provider's error: the SSO error page, not the email step.
  await page.goto('/#/login/verify-password?error_identifier=45032');
  const error = page.getByTestId('sso-error');
  await expect(error.getByRole('heading', { name: 'Error: 45032' })).toBeVisible();
  await expect(page).toHaveURL(/#\/login\/verify-password/);
  await shot(page, 'verify-password-sso-error', 320);
  await shots(page, 'verify-password-sso-error');

  // sso_status=success without a token is not a callback.
  await error.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page).toHaveURL(atRoute('/login'));
  await page.goto('/#/login/verify-password?sso_status=success');
  await expect(page).toHaveURL(atRoute('/login'));

  // Success with a token: the sign-in is asked for (here a token the server never accepts: 45038 after five tries).
  await page.goto(`/#/login/verify-password?sso_status=success&token=${'y'.repeat(43)}`);
  await expect(page.getByTestId('sso-verifying')).toBeVisible();
  // The token leaves the address bar; the page stays.
  await expect(page).toHaveURL(/#\/login\/verify-password\?sso_status=success$/);
  await expect(page.getByRole('heading', { name: 'Error: 45038' })).toBeVisible({ timeout: 15_000 });
});

test('onboarding: the invitation’s email link names the email, sends a code, asks for a first password, and works once', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const email = `new-${randomUUID().slice(0, 8)}@northwind.example`;
  const alex = await apiSignIn(ADMINS.alex.email, 'northwind');
  const after = await mailCursor();
  const added = await apiPost('/organization/admin/user/add/', { email, scopes: ['admin'] }, { authorization: `Bearer ${alex}` });
  expect(added.status).toBe(200);
  let invitation = '';
  await expect(async () => {
    invitation = (await messagesTo(email, after)).at(-1)?.text ?? '';
    expect(invitation).toContain('#/email-verification/');
  }).toPass();
  const link = /#\/email-verification\/\S+/.exec(invitation)?.[0] ?? '';

  await page.goto(`/${link}`);
  await expect(page.getByRole('heading', { name: 'Confirm your email' })).toBeVisible();
  await expect(page.getByTestId('email-link-ready')).toContainText(`${email} as an administrator of Northwind Traders`);
  await shots(page, 'email-link');

  const codeAfter = await mailCursor();
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page).toHaveURL(atRoute('/login/verify-otp'));
  await enterCode(page, await latestCode(email, { after: codeAfter }));
  await expect(page).toHaveURL(atRoute('/login/set-password'));
  await page.getByLabel('New password', { exact: true }).fill('onboarding-first-password');
  await page.getByLabel('Retype new password').fill('onboarding-first-password');
  await page.getByRole('button', { name: 'Set a password' }).click();
  await expect(page).toHaveURL(atRoute('/dashboard'));

  const menu = await openProfileMenu(page);
  await menu.getByRole('menuitem', { name: 'Log out' }).click();
  await page.goto(`/${link}`);
  await expect(page.getByTestId('email-link-invalid')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Invalid or expired link' })).toBeVisible();
  await shots(page, 'email-link-invalid');
});
