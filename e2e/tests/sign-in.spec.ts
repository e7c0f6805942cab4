import {
  ADMINS,
  atRoute,
  codeBox,
  continueButton,
  DEMO_PASSWORD,
  emailInput,
  enterCode,
  FAMILY,
  familyTrialPopupSeen,
  NORTHWIND,
  passwordAndCode,
  passwordInput,
  readSession,
  seenTexts,
  sidebarNav,
  signIn,
  watchForTexts,
} from '../support/latchkey.ts';
import { latestCode, mailCursor, withMailLock } from '../support/mail.ts';
import { expect, test } from '../support/test.ts';

// Spec §2 Login screens, §4 Login sequence, §8 Login errors.

test('password and emailed code land on the dashboard inside the layout', async ({ page }) => {
  await page.goto('/');
  // Unauthenticated: '/' is behind the guard.
  await expect(page).toHaveURL(atRoute('/login'));
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  await signIn(page, ADMINS.alex.email, { open: false });

  await expect(page).toHaveURL(atRoute('/dashboard'));
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await expect(sidebarNav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByTestId('team-name')).toHaveText(NORTHWIND.name);
  await expect(page.getByTestId('page-dashboard').getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  // The profile menu's avatar shows the admin's initial (spec §3 Admin profile).
  await expect(page.getByTestId('profile-menu')).toHaveText('A');
  // The footer is part of the layout too.
  const footer = page.locator('footer');
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Latchkey. All rights reserved.`);
  await expect(footer.getByRole('link', { name: 'Privacy policy' })).toBeVisible();
});

test('the password step names the email and team being signed in', async ({ page }) => {
  await page.goto('/#/login');
  await emailInput(page).fill(`  ${ADMINS.adam.email.toUpperCase()}  `);
  await continueButton(page).click();
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  // Emails are trimmed (and compared without case) before login (spec §5).
  await expect(page.getByTestId('login-email')).toHaveText(`${ADMINS.adam.email} · ${NORTHWIND.name}`);
  // An empty password is refused before any call.
  await continueButton(page).click();
  await expect(page.getByText('Please enter your password')).toBeVisible();
});

test('a wrong password shows "Invalid password"', async ({ page }) => {
  await page.goto('/#/login');
  await emailInput(page).fill(ADMINS.adam.email);
  await continueButton(page).click();
  await passwordInput(page).fill('not-the-password');
  await continueButton(page).click();
  await expect(page.getByText('Invalid password', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  // The message is tied to the field for screen readers.
  await expect(passwordInput(page)).toHaveAccessibleDescription('Invalid password');
});

test('a wrong code shows the inline error, and the right code then signs in', async ({ page }) => {
  const email = ADMINS.adam.email;
  await page.goto('/#/login');
  await emailInput(page).fill(email);
  await continueButton(page).click();
  await withMailLock(email, async () => {
    const after = await mailCursor();
    await passwordInput(page).fill(DEMO_PASSWORD);
    await continueButton(page).click();
    await expect(page).toHaveURL(atRoute('/login/verify-otp'));
    const code = await latestCode(email, { after });
    const wrong = code === '000000' ? '111111' : '000000';

    await enterCode(page, wrong);
    await expect(page.getByTestId('code-error')).toHaveText('Invalid or expired code entered');
    await expect(page).toHaveURL(atRoute('/login/verify-otp'));
    // The boxes are cleared for another try.
    await expect(codeBox(page, 1)).toHaveValue('');

    await enterCode(page, code);
    await expect(page).toHaveURL(atRoute('/dashboard'));
  });
  await expect(page.getByTestId('team-name')).toHaveText(NORTHWIND.name);
});

test('an invalid email and an unknown email are refused on the email step', async ({ page }) => {
  await page.goto('/#/login');
  await emailInput(page).fill('not-an-email');
  await continueButton(page).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
  await expect(page).toHaveURL(atRoute('/login'));

  await emailInput(page).fill('nobody@northwind.example');
  await continueButton(page).click();
  await expect(page.getByText('This email is not registered')).toBeVisible();
  await expect(page).toHaveURL(atRoute('/login'));

  await emailInput(page).fill('');
  await continueButton(page).click();
  await expect(page.getByText('Please enter your email')).toBeVisible();
});

test('an email with two teams chooses one; the family team gets the family sidebar', async ({ page }) => {
  await watchForTexts(page, ['Your Hub did not answer']);
  // The trial popup is people-dashboard.spec.ts's subject; here it would only cover the sidebar.
  await familyTrialPopupSeen(page);
  await page.goto('/#/login');
  await emailInput(page).fill(ADMINS.sam.email);
  await continueButton(page).click();

  const choice = page.getByRole('radiogroup', { name: 'Choose the team to manage' });
  await expect(choice).toBeVisible();
  await expect(choice.getByRole('radio')).toHaveCount(2);
  await expect(choice.getByRole('radio', { name: NORTHWIND.name })).toBeVisible();
  await expect(choice.getByRole('radio', { name: FAMILY.name })).toBeVisible();
  // Nothing is chosen yet, so the step cannot go on.
  await expect(continueButton(page)).toBeDisabled();

  await expect(emailInput(page)).toHaveAttribute('readonly');
  await choice.getByRole('radio', { name: FAMILY.name }).check();
  await continueButton(page).click();
  await expect(page.getByTestId('login-email')).toHaveText(`${ADMINS.sam.email} · ${FAMILY.name}`);
  await passwordAndCode(page, ADMINS.sam.email, { expectPath: '/dashboard' });

  await expect(page.getByTestId('team-name')).toHaveText(FAMILY.name);
  const nav = sidebarNav(page);
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  // Spec §2 Layout: Users, Groups, Policy, Billing and Settings are hidden for family teams.
  for (const name of ['Users', 'Groups', 'Policy', 'Billing', 'Settings']) {
    await expect(nav.getByRole('link', { name, exact: true })).toHaveCount(0);
  }
  await page.getByTestId('profile-menu').click();
  await expect(page.getByTestId('plan-label')).toHaveText('Family plan');
  await page.keyboard.press('Escape');

  // The family team has no Hub: no green dot, its services disabled with the reason on hover,
  // and no 'did not answer' toast (there was nothing to ask).
  expect((await readSession(page))?.hub).toBeNull();
  await expect(nav.getByRole('link', { name: 'Integration' })).toBeVisible();
  await expect(page.getByTestId('integration-dot')).toHaveCount(0);
  const audit = nav.getByRole('link', { name: 'Security Audit' });
  await expect(audit).toHaveAttribute('aria-disabled', 'true');
  // The disabled link takes no pointer events; its wrapper shows why (UI.md: a disabled item says why on hover).
  await audit.locator('xpath=..').hover();
  await expect(page.getByRole('tooltip')).toHaveText('Connect a Hub to use this service.');
  expect(await seenTexts(page)).toEqual([]);
});
