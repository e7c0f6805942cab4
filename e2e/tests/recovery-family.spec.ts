import { ADMINS, atRoute, FAMILY, familyTrialPopupSeen, signIn } from '../support/latchkey.ts';
import { shot } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

// The family's owner is its super admin, and the family has no Hub until hub-integration.spec.ts
// (a project that runs after this one) connects one.
test.beforeEach(({ page }) => familyTrialPopupSeen(page));

test("recovery without a Hub: the family's owner is shown the way (connect a Hub), not told to ask a super admin", async ({
  page,
}) => {
  await signIn(page, ADMINS.sam.email, { team: FAMILY.name, expectPath: '/dashboard' });
  await page.goto('/#/recovery');
  const off = page.getByTestId('recovery-off');
  await expect(off).toHaveAttribute('data-mode', 'connect_hub');
  await expect(off).toContainText('recovery runs on your Latchkey Hub. Connect a Hub in Integration');
  await expect(off).not.toContainText('Ask a super admin');
  for (const width of [1280, 375, 320]) await shot(page, 'recovery-family-no-hub', width);
  await page.setViewportSize({ width: 1280, height: 800 });
  await off.getByTestId('recovery-off-integration').click();
  await expect(page).toHaveURL(atRoute('/integration'));
  await expect(page.getByTestId('hub-connect')).toBeVisible();
});
