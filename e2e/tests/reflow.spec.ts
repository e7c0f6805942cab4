import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { ADMINS, signIn } from '../support/latchkey.ts';
import { shot } from '../support/screenshots.ts';
import { expect, test } from '../support/test.ts';

/**
 * WCAG 1.4.10 (reflow): at 320 px every screen of the route table reads without sideways
 * scrolling and without cut text. A table that must stay a table scrolls inside its card, and
 * then says so (its scroller carries the visible cue, `data-scroll-cue`).
 */
const NARROW = 320;

/**
 * Every path of the console's route table (apps/web/src/app/routes.ts gathers each feature's
 * routes.ts), read from the features' sources: the console's modules are TSX, which the suite's
 * TypeScript does not compile.
 */
function routeTablePaths(): string[] {
  const features = resolve(import.meta.dirname, '../../apps/web/src/features');
  return readdirSync(features).flatMap((feature) => {
    let source = '';
    try {
      source = readFileSync(join(features, feature, 'routes.ts'), 'utf8');
    } catch {
      return [];
    }
    return [...source.matchAll(/\bpath: '([^']+)'/g)].map((m) => m[1] as string);
  });
}

/** One finding: what is wrong and where (the element's test id, else its tag and text). */
type Finding = string;

/**
 * The text the page cuts or hides sideways: elements whose content is wider than their box while
 * their overflow is hidden or ends in an ellipsis, line-clamped text that is taller than its box,
 * fields whose value or placeholder is wider than the field, and sideways scrollers without a cue.
 */
function findClipped(): Finding[] {
  const findings: string[] = [];
  const where = (el: Element): string => {
    const id = el.closest('[data-testid]')?.getAttribute('data-testid');
    const text = (el.textContent ?? (el as HTMLInputElement).placeholder ?? '').trim().replace(/\s+/g, ' ').slice(0, 60);
    return `${el.tagName.toLowerCase()}${id ? ` in [${id}]` : ''} "${text}"`;
  };
  const measure = document.createElement('canvas').getContext('2d');
  const shown = (el: Element, style: CSSStyleDeclaration): boolean => {
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) return false;
    const box = el.getBoundingClientRect();
    // Visually hidden text for screen readers is 1×1 and clipped on purpose.
    return box.width > 2 && box.height > 2 && style.clipPath === 'none' && style.clip !== 'rect(0px, 0px, 0px, 0px)';
  };
  for (const el of document.querySelectorAll('body *')) {
    if (!(el instanceof HTMLElement) || el.closest('[aria-hidden="true"], svg')) continue;
    const style = getComputedStyle(el);
    if (!shown(el, style)) continue;
    const hasText = (el.textContent ?? '').trim() !== '';
    const wider = el.scrollWidth > el.clientWidth + 1;
    const hides = style.overflowX === 'hidden' || style.overflowX === 'clip' || style.textOverflow === 'ellipsis';
    const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
    if (hasText && wider && hides) findings.push(`cut: ${where(el)}`);
    if (hasText && wider && scrolls && !el.closest('[data-scroll-cue][data-overflows]'))
      findings.push(`scrolls sideways without a cue: ${where(el)}`);
    if (hasText && style.webkitLineClamp !== 'none' && el.scrollHeight > el.clientHeight + 1)
      findings.push(`clamped: ${where(el)}`);
    if (
      (el instanceof HTMLInputElement && !['checkbox', 'radio', 'hidden', 'file'].includes(el.type)) ||
      el instanceof HTMLTextAreaElement
    ) {
      if (el instanceof HTMLTextAreaElement || !measure) continue;
      const text = el.value || el.placeholder;
      measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      if (text && measure.measureText(text).width > room + 1) findings.push(`field cut: ${where(el)} "${text}"`);
    }
  }
  // An e-mail address wraps only before its "@" or a dot (UI.md), never inside a word: in the
  // innermost element holding each address, every line that starts inside it starts at one of those.
  const address = /[^\s@()]+@[^\s@()]+\.[^\s@()]+/;
  for (const el of document.querySelectorAll('body *')) {
    const text = el.textContent ?? '';
    const found = [...text.matchAll(new RegExp(address, 'g'))];
    if (found.length === 0 || [...el.children].some((child) => address.test(child.textContent ?? ''))) continue;
    const inside = (at: number) => found.some((m) => at > (m.index ?? 0) && at < (m.index ?? 0) + m[0].length);
    const nodes = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let offset = 0;
    let lastTop: number | undefined;
    for (let node = nodes.nextNode(); node; node = nodes.nextNode()) {
      const length = node.textContent?.length ?? 0;
      for (let i = 0; i < length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        const at = offset + i;
        if (lastTop !== undefined && rect.top > lastTop + 2 && inside(at) && !/[@.]/.test(text[at] ?? '')) {
          findings.push(`e-mail broken inside a word: ${where(el)} (a line starts at "${text.slice(at, at + 8)}")`);
        }
        lastTop = rect.top;
      }
      offset += length;
    }
  }
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth) findings.push(`the page scrolls sideways: ${page.scrollWidth} > ${page.clientWidth}`);
  return findings;
}

/** Waits until the screen has its content: no skeleton left, the network quiet. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('.mantine-Skeleton-root, [data-testid="screen-skeleton"]')).toHaveCount(0, { timeout: 15_000 });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Transitions under way (the sidebar closing after the resize) end first: a half-moved layout is not the screen.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

/** The path of the first link on `from` whose href matches, as the route table spells it. */
async function linkFrom(page: Page, from: string, href: RegExp): Promise<string> {
  await page.goto(`/#/${from}`);
  const hrefs = () => page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  await expect.poll(async () => (await hrefs()).some((h) => href.test(h)), `a link to ${href} on /${from}`).toBe(true);
  return ((await hrefs()).find((h) => href.test(h)) as string).replace(/^\/?#?\/?/, '');
}

/** A screen to visit: a route of the table with its parameters filled in, and an optional step on it. */
interface Visit {
  route: string;
  path: string;
  /** A state of the screen worth its own look (the group tab of the policies). */
  step?: { name: string; run: (page: Page) => Promise<void> };
}

/** Every route of the route table with real parameters (from the screens that link to them), and the group policies tab. */
async function everyScreen(page: Page): Promise<Visit[]> {
  const member = await linkFrom(page, 'users', /^\/?#?\/?users\/[^/]+$/);
  const group = await linkFrom(page, 'groups', /^\/?#?\/?groups\/[^/]+$/);
  // A group member's devices open from the row's menu: the path is the group's and the member's.
  await page.goto(`/#/${group}`);
  const memberEmail = await page.getByTestId('group-member-row').first().getAttribute('data-email');
  const groupMember = `${group}/${encodeURIComponent(memberEmail ?? '')}`;
  const history = await linkFrom(page, 'policies/history', /^\/?#?\/?policies\/history\/[^/]+$/);
  const vault = await linkFrom(page, 'audit', /^\/?#?\/?vault\/[^/]+$/);
  const params: Record<string, string> = {
    'users/:userData': member,
    'groups/:groupId': group,
    'groups/:groupId/:userData': groupMember,
    'policies/history/:historyId': history,
    'vault/:summaryId': vault,
  };
  const routes = routeTablePaths();
  expect(routes.length, 'the route table read').toBeGreaterThan(25);
  const visits: Visit[] = routes.map((route) => ({ route, path: params[route] ?? route }));
  visits.push({
    route: 'policies',
    path: 'policies',
    step: {
      name: 'group-policies',
      run: async (p) => {
        await p.getByTestId('tab-groups').click();
        await expect(p.getByTestId('group-policy-form')).toBeVisible();
      },
    },
  });
  expect(
    visits.filter((v) => v.path.includes(':')),
    'every parameter filled in',
  ).toEqual([]);
  return visits;
}

/** The page header's action (when the screen has one) starts above the title's bottom edge: on the title's row. */
async function actionBesideTitle(page: Page): Promise<boolean> {
  const header = page.getByTestId('page-header');
  if ((await header.count()) === 0) return true;
  return header.evaluate((el) => {
    const action = el.querySelector('[data-testid="page-action"]');
    const title = el.querySelector('h1');
    if (!action || action.childElementCount === 0 || !title) return true;
    return action.getBoundingClientRect().top < title.getBoundingClientRect().bottom;
  });
}

/** Opens the visit's screen and waits for its content; its screenshot name. */
async function open(page: Page, visit: Visit): Promise<string> {
  await page.goto(`/#/${visit.path}`);
  await expect(page.locator('[data-testid^="page-"]').first()).toBeVisible();
  await visit.step?.run(page);
  await settled(page);
  return visit.step?.name ?? visit.route.replaceAll('/', '-').replaceAll(':', '');
}

test('at 320 px no route of the route table scrolls sideways or cuts text (WCAG 1.4.10)', async ({ page }) => {
  test.setTimeout(600_000);
  await signIn(page, ADMINS.alex.email);
  const visits = await everyScreen(page);
  await page.setViewportSize({ width: NARROW, height: 740 });
  const problems: string[] = [];
  for (const visit of visits) {
    const name = await open(page, visit);
    // A route the super admin may not open (the wizard after onboarding) sends the admin elsewhere: that screen is checked.
    for (const finding of await page.evaluate(findClipped))
      problems.push(`${visit.path} (${page.url().split('#')[1]}): ${finding}`);
    await shot(page, `reflow-${name}`, NARROW);
  }
  expect(problems, 'text cut or scrolling sideways at 320 px').toEqual([]);
});

test('every route of the route table at 375 and 1280 px: screenshots, each scanned with axe', async ({ page }) => {
  test.setTimeout(600_000);
  await signIn(page, ADMINS.alex.email);
  const visits = await everyScreen(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 740 });
    for (const visit of visits) {
      const name = await open(page, visit);
      // UI.md: the primary action sits at the title's right, never on a row of its own at 1280.
      if (width === 1280) expect(await actionBesideTitle(page), `${visit.path}: the page action beside the title`).toBe(true);
      await shot(page, `reflow-${name}`, width);
    }
  }
});
