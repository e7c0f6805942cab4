import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expectAccessible } from './a11y.ts';

/** Where every spec's screenshots go, for a person to look at after a run. */
const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../test-results/screenshots');

const viewport = (width: number) => ({ width, height: width > 600 ? 800 : 740 });

/**
 * One screenshot of the page at `width` px, named `<name>-<width>.png`; the screen is scanned
 * with axe at that width first (no serious or critical violation: support/a11y.ts), so every
 * screen a spec looks at is also checked for accessibility. `axe: false` only for a picture of a
 * state that is not a screen (none today).
 */
export async function shot(
  page: Page,
  name: string,
  width: number,
  { fullPage = true, axe = true }: { fullPage?: boolean; axe?: boolean } = {},
): Promise<void> {
  await page.setViewportSize(viewport(width));
  await settled(page);
  if (axe) await expectAccessible(page, `${name} at ${width}`);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage, animations: 'disabled' });
}

/**
 * Waits for the transitions and animations under way (a menu fading in) to end: axe scanned a menu
 * at part of its opacity once and found its text too faint. Endless ones (a spinner) are not waited for.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** The page at desktop and phone width, then back to the desktop size the specs run at. */
export async function shots(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  for (const width of [1280, 375]) await shot(page, name, width, options);
  await page.setViewportSize(viewport(1280));
}
