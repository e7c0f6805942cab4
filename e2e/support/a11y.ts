import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

/** The rules axe checks: WCAG 2.0/2.1 A and AA, plus its best-practice rules. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Impacts that fail a test (0 serious or critical on every screen). */
const FAILING = new Set(['serious', 'critical']);

/**
 * Scans the page as it is now with axe and fails the test on any serious or critical violation,
 * naming each rule, its impact and the first elements that break it. `label` names the screen
 * in the failure (e.g. "users at 375").
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // A scan takes a few seconds on a busy machine: it brings its own time, not the test's.
  test.info().setTimeout(test.info().timeout + 10_000);
  // Transitions (drawers, dialogs) settle first: a half-faded colour is not the real one.
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 })
    .catch(() => undefined);
  // Toasts are left out: one can start fading out (its text at a fraction of its colour) while a
  // scan runs on a busy machine. Their colours come from the same theme the scan checks elsewhere.
  const results = await new AxeBuilder({ page }).withTags(TAGS).exclude('.mantine-Notifications-root').analyze();
  const failing = results.violations
    .filter((v) => FAILING.has(v.impact ?? ''))
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n${v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1, 2).join(' ').trim()}`)
          .join('\n')}`,
    );
  expect(failing, `axe: serious/critical violations on ${label}`).toEqual([]);
}
