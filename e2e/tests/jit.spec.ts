import { apiPost, apiSignIn } from '../support/api.ts';
import { ADMINS, flipSwitch, signIn } from '../support/latchkey.ts';
import { shot, shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/**
 * Just-in-time admin rights: Alex (the team's standing super admin) switches them on and makes
 * Adam eligible for super admin; Adam asks for it in his console; Alex approves in another
 * browser; Adam's console shows the super-admin screens at once, without signing in again.
 */
test('an admin asks for super admin just in time, another super admin approves, and the screens open without a new sign-in', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const alexContext = await browser.newContext();
  const adamContext = await browser.newContext();
  const alex = await alexContext.newPage();
  const adam = await adamContext.newPage();
  const cleanUp = async () => {
    const token = await apiSignIn(ADMINS.alex.email, 'northwind');
    const auth = { authorization: `Bearer ${token}` };
    await apiPost('/api/v1/team/admin/elevation/settings/', { enabled: false }, auth);
    await apiPost('/api/v1/team/admin/eligibility/', { email: ADMINS.adam.email, scopes: ['admin'], eligible_scopes: [] }, auth);
  };
  try {
    // Alex: the team's switch, then Adam's super admin scope made just in time.
    await signIn(alex, ADMINS.alex.email);
    await alex.goto('/#/settings/manage-administrators');
    const jit = alex.getByTestId('jit-settings');
    await expect(jit).toContainText('Just-in-time admin rights');
    await flipSwitch(jit.getByTestId('jit-switch'));
    await expect(alex.getByText('Just-in-time admin rights are on.')).toBeVisible();
    const adamRow = alex.locator(`[data-testid="admin-row"][data-email="${ADMINS.adam.email}"]`);
    await adamRow.getByRole('button', { name: `Actions for ${ADMINS.adam.email}` }).click();
    await alex.getByRole('menuitem', { name: 'Standing and just-in-time scopes' }).click();
    const eligibility = alex.getByTestId('eligibility-dialog');
    await eligibility.getByTestId('eligibility-super_admin').getByText('Just in time').click();
    await eligibility.getByTestId('eligibility-save').click();
    await expect(alex.getByText(`The scopes of ${ADMINS.adam.email} are saved.`)).toBeVisible();
    await expect(adamRow.getByTestId('admin-eligible')).toHaveText('Super admin (just in time)');

    // Adam: an admin, not a super admin; the administrators screen is not his.
    await signIn(adam, ADMINS.adam.email);
    await adam.goto('/#/settings/manage-administrators');
    await expect(adam.getByTestId('administrators')).toHaveCount(0);
    await adam.getByTestId('elevation-open').click();
    const ask = adam.getByTestId('elevation-dialog');
    await expect(ask.getByTestId('elevation-scope')).toHaveValue('Super admin');
    await ask.getByTestId('elevation-duration').click();
    await adam.getByRole('option', { name: '1 h' }).click();
    await ask.getByTestId('elevation-submit').click();
    // A reason is required.
    await expect(ask.getByText('Say why, in a few words.')).toBeVisible();
    await ask.getByTestId('elevation-reason').fill('Rotate the SCIM token for the Okta migration');
    await shot(adam, 'jit-request', 1280);
    await ask.getByTestId('elevation-submit').click();
    await expect(adam.getByText('Your request for Super admin is waiting for approval.')).toBeVisible();
    const badge = adam.getByTestId('elevation-badge');
    await expect(badge).toHaveAttribute('data-status', 'pending');
    await expect(badge).toContainText('Super admin · awaiting approval');

    // Alex, in his own browser: the request in the administrators list, approved with a comment.
    await alex.reload();
    await expect(adamRow.getByTestId('admin-elevation')).toHaveText('Super admin requested');
    await adamRow.getByRole('button', { name: `Actions for ${ADMINS.adam.email}` }).click();
    await alex.getByRole('menuitem', { name: 'Approve or reject Super admin' }).click();
    const decide = alex.getByTestId('elevation-decide-dialog');
    await expect(decide).toContainText(`${ADMINS.adam.email} asks for Super admin for 1 h.`);
    await expect(decide.getByTestId('elevation-decide-reason')).toHaveText(
      'Reason: Rotate the SCIM token for the Okta migration',
    );
    await decide.getByTestId('elevation-decide-comment').fill('Go ahead');
    await decide.getByTestId('elevation-approve').click();
    await expect(alex.getByText(`${ADMINS.adam.email} holds Super admin now.`)).toBeVisible();
    await expect(adamRow.getByTestId('admin-elevation')).toHaveText(/^Super admin until \d{2}:\d{2}/);
    await shots(alex, 'jit-administrators');

    // Adam, without signing in again: the elevation runs, with its countdown, and the screens open.
    await expect(badge).toHaveAttribute('data-status', 'active', { timeout: 15_000 });
    await expect(badge).toContainText(/Super admin · (59|60):\d{2}/);
    await adam.goto('/#/settings/manage-administrators');
    await expect(adam.getByTestId('administrators')).toBeVisible();
    await expect(adam.getByTestId('jit-settings')).toBeVisible();
    await shots(adam, 'jit-elevated');
    await shot(adam, 'jit-elevated', 320);
    await adam.setViewportSize({ width: 1280, height: 800 });

    // Dropping it early: the super-admin screens close again at once.
    await badge.click();
    await adam.getByTestId('elevation-drop').click();
    await expect(adam.getByText('Your elevation has ended.')).toBeVisible();
    await expect(adam.getByTestId('elevation-badge')).toHaveCount(0);
    await expect(adam.getByTestId('administrators')).toHaveCount(0);
    await expect(adam).not.toHaveURL(/manage-administrators/);
    // Asking again is offered: he is still eligible.
    await expect(adam.getByTestId('elevation-open')).toBeVisible();
  } finally {
    await cleanUp();
    await alexContext.close();
    await adamContext.close();
  }
});
