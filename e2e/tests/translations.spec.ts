import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { ADMINS, signIn } from '../support/latchkey.ts';
import { shots } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/**
 * The event-log, SIEM, SCIM and SSO screens in two languages other than English: German (long
 * words, the widest layout) and Arabic (right to left). Read-only: dialogs are opened, never saved.
 */
type Messages = Record<string, string>;
const messages = (code: string): Messages =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, `../../apps/web/src/locales/${code}.json`), 'utf8')) as Messages;
const en = messages('en');

async function inLanguage(page: Page, code: string, path: string) {
  await page.evaluate(`localStorage.setItem('latchkey.language', '${code}')`);
  await page.goto(`/#${path}`);
  await page.reload();
}

for (const code of ['de', 'ar']) {
  const t = messages(code);

  test(`event logs, SIEM, SCIM and SSO screens read in ${code}`, async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, ADMINS.alex.email);

    await inLanguage(page, code, '/settings/eventlogs');
    const siem = page.getByTestId('siem-card');
    await expect(siem.getByText(t['siem.title'] ?? '', { exact: true })).toBeVisible();
    await expect(page.getByTestId('retention-card').getByText(t['eventlogs.retention.title'] ?? '')).toBeVisible();
    await expect(page.getByText(en['siem.description'] ?? '')).toHaveCount(0);
    await shots(page, `translations-${code}-eventlogs-settings`);
    await siem.getByTestId('siem-configure-splunk').click();
    const form = page.getByTestId('siem-form');
    await expect(form.getByText(t['siem.field.allow_unverified_certificate'] ?? '')).toBeVisible();
    await shots(page, `translations-${code}-siem-form`);
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();

    await inLanguage(page, code, '/eventlogs');
    await expect(page.getByTestId('eventlogs-search')).toHaveAttribute('placeholder', t['eventlogs.search_placeholder'] ?? '');
    await expect(
      page
        .getByTestId('eventlogs')
        .getByText(t['eventlogs.filter.from'] ?? '', { exact: true })
        .first(),
    ).toBeVisible();
    await shots(page, `translations-${code}-eventlogs`);

    await inLanguage(page, code, '/settings/scim-connectors');
    await expect(page.getByTestId('scim-create-open')).toHaveText(t['scim.create'] ?? '');
    await page.getByTestId('scim-create-open').click();
    const create = page.getByTestId('scim-create-dialog');
    await expect(create.getByText(t['scim.idp'] ?? '', { exact: true })).toBeVisible();
    await shots(page, `translations-${code}-scim-create`);
    await page.keyboard.press('Escape');
    await expect(create).toBeHidden();

    await inLanguage(page, code, '/settings/sso-connector');
    await expect(page.getByTestId('sso-create')).toHaveText(t['sso.create'] ?? '');
    await expect(page.getByTestId('sso-sp').getByText(t['sso.sp_title'] ?? '')).toBeVisible();
    await expect(page.getByText(en['sso.sp_hint'] ?? '')).toHaveCount(0);
    await shots(page, `translations-${code}-sso`);
  });
}
