import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { ADMINS, signIn } from '../support/latchkey.ts';
import { shot } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/**
 * The event log reads in the admin's language: the table and the Activities filter show the
 * activity catalogue's labels, the details add its description and keep the code; at 1280 px no
 * column is clipped, below 768 px each event is a card. Read-only: it relies only on the sign-in
 * the spec makes itself (the server forwards it to the Hub).
 */
type Messages = Record<string, string>;
const messages = (code: string): Messages =>
  JSON.parse(readFileSync(resolve(import.meta.dirname, `../../apps/web/src/locales/${code}.json`), 'utf8')) as Messages;

/** Alex's own sign-in: other specs sign in to the same team at the same time. */
const signInRow = (page: Page) =>
  page.locator('[data-testid="event-row"][data-activity="auth.sign_in"]').filter({ hasText: ADMINS.alex.email }).first();

/** The log once the spec's own sign-in has reached the Hub (the outbox delivers within seconds). */
async function openLog(page: Page) {
  await expect(async () => {
    await page.goto('/#/eventlogs');
    await page.reload();
    await expect(signInRow(page)).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * Nothing inside the event log scrolls sideways: every column, Outcome last, is on screen. Asked
 * until it holds for a moment: after a resize the navigation slides away and the fields widen.
 */
async function expectNotClipped(page: Page) {
  await expect(() => notClipped(page)).toPass({ timeout: 5_000 });
}

async function notClipped(page: Page) {
  const clipped = await page
    .getByTestId('eventlogs')
    .evaluate((root) =>
      [root, ...root.querySelectorAll('*')]
        .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
        .map((e) => `${e.tagName}.${e.className}`),
    );
  expect(clipped, 'a part of the event log scrolls sideways').toEqual([]);
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    view: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.view);
}

for (const code of ['en', 'de']) {
  const t = messages(code);

  test(`the event log shows activity labels in ${code}, unclipped at 1280 and as cards on a phone`, async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, ADMINS.alex.email);
    await page.evaluate(`localStorage.setItem('latchkey.language', '${code}')`);
    await openLog(page);

    // The table: the label, the component's name under it, never the code.
    const row = signInRow(page);
    await expect(row.getByTestId('event-activity')).toHaveText(t['activity.label.auth.sign_in'] ?? '');
    await expect(row).toContainText(t['activity.component.auth'] ?? '');
    await expect(row).not.toContainText('auth.sign_in');
    await expect(page.getByRole('columnheader', { name: t['eventlogs.col.outcome'] })).toBeInViewport();
    await expectNotClipped(page);
    await shot(page, `eventlogs-labels-${code}`, 1280);

    // The details: label, the description with this event's values, and the code.
    await row.click();
    const detail = page.getByTestId('event-detail');
    await expect(detail.getByTestId('event-detail-label')).toHaveText(t['activity.label.auth.sign_in'] ?? '');
    await expect(detail.getByTestId('event-detail-description')).toContainText(ADMINS.alex.email);
    await expect(detail.getByTestId('event-detail-code')).toHaveText('auth.sign_in');
    await shot(page, `eventlogs-labels-${code}-detail`, 1280);
    await page.keyboard.press('Escape');

    // The Activities filter: labels, grouped by component.
    await page.getByTestId('filter-activities').click();
    await expect(page.getByRole('option', { name: t['activity.label.auth.sign_in'], exact: true })).toBeVisible();
    await expect(page.getByText(t['activity.component.auth'] ?? '', { exact: true }).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await page.getByTestId('filter-activities').blur();
    await expect(page.getByRole('listbox')).toBeHidden();

    // A phone: one card per event, headed by its label; nothing wider than the screen.
    for (const width of [375, 320]) {
      await page.setViewportSize({ width, height: 740 });
      await expect(page.locator('[data-layout="cards"]')).toBeVisible();
      const card = signInRow(page);
      await expect(card).toHaveAttribute('data-row-card', '');
      await expect(card).toContainText(t['activity.label.auth.sign_in'] ?? '');
      await expectNotClipped(page);
      await shot(page, `eventlogs-labels-${code}`, width);
    }
  });
}
