import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { HUB_URL, SERVER_URL } from '../support/env.ts';
import { ADMINS, atRoute, readSession, type StoredSession, sidebarNav, signIn } from '../support/latchkey.ts';
import { expect, test } from '../support/test.ts';

// The console's tokens live in localStorage, shared by every tab of the browser; each tab renews
// them on its own timer, the spec's two minutes before they expire. The suite's programs run with
// 130-second tokens (a renewal ~10 s after sign-in); scripts/soak-sessions.mjs runs this file at the
// programs' default lifetimes, where the tests wait accordingly.

const REFRESH = `${SERVER_URL}/oauth/refresh/token/`;
const HUB_REFRESH = `${HUB_URL}/auth/token/refresh/`;
/** The spec's margin: a token is renewed this long before it expires. */
const MARGIN_MS = 120_000;

/** The answers to every renewal of the console's and the Hub's tokens in the browser, by status. */
function watchRenewals(context: BrowserContext) {
  const statuses: string[] = [];
  context.on('response', (response) => {
    const url = response.url();
    if (response.request().method() === 'POST' && (url === REFRESH || url === HUB_REFRESH)) {
      statuses.push(`${response.status()} ${url}`);
    }
  });
  return { refused: () => statuses.filter((s) => !s.startsWith('200 ')) };
}

/** The two programs take the stored tokens: the session is live on the server and on the Hub. */
async function expectLive(request: APIRequestContext, session: StoredSession | null) {
  expect(session, 'a session in storage').not.toBeNull();
  const info = await request.post(`${SERVER_URL}/api/v1/team/info/`, {
    headers: { authorization: `Bearer ${session?.token.access}` },
    data: {},
  });
  expect(info.status(), 'the server takes the stored access token').toBe(200);
  const hub = await request.post(`${HUB_URL}/api/v1/session/`, {
    headers: { authorization: `Bearer ${session?.hub?.tokens.access}` },
    data: { team_slug: session?.team_slug },
  });
  expect(hub.status(), 'the Hub takes the stored access token').toBe(200);
}

/** A console screen reached from the sidebar, and its page's test id. */
const SCREENS = {
  Dashboard: 'dashboard',
  Users: 'users',
  Policy: 'policies',
  'Security Audit': 'audit',
  Sharing: 'sharing',
} as const;
type ScreenName = keyof typeof SCREENS;

async function goTo(tab: Page, name: ScreenName) {
  await sidebarNav(tab).getByRole('link', { name }).click();
  await expect(tab).toHaveURL(atRoute(`/${SCREENS[name]}`));
  await expect(tab.getByTestId(`page-${SCREENS[name]}`)).toBeVisible();
}

/** The renewal period of a session just signed in: its access token's lifetime less the margin. */
async function renewalPeriod(page: Page): Promise<number> {
  const session = await readSession(page);
  return Math.max(5_000, (session?.token.expires_at ?? 0) - Date.now() - MARGIN_MS);
}

test('two tabs of one browser stay signed in past two renewals, both moving between screens', async ({ page, context }) => {
  const renewals = watchRenewals(context);
  await signIn(page, ADMINS.alex.email);
  const period = await renewalPeriod(page);
  test.setTimeout(3 * period + 90_000);
  const start = await readSession(page);

  const second = await context.newPage();
  const secondErrors: string[] = [];
  second.on('pageerror', (error) => secondErrors.push(error.message));
  await second.goto('/#/audit');
  await expect(second.getByTestId('page-audit')).toBeVisible();

  const tours: [Page, ScreenName[]][] = [
    [page, ['Users', 'Security Audit', 'Policy', 'Sharing']],
    [second, ['Dashboard', 'Sharing', 'Users', 'Security Audit']],
  ];
  // Both tabs move about until the console's tokens and the Hub's have each been renewed twice.
  const consoleTokens = new Set([start?.token.refresh_token]);
  const hubTokens = new Set([start?.hub?.tokens.refresh]);
  for (let step = 0; consoleTokens.size < 3 || hubTokens.size < 3; step += 1) {
    await Promise.all(tours.map(([tab, names]) => goTo(tab, names[step % names.length] as ScreenName)));
    for (const tab of [page, second]) {
      const session = await readSession(tab);
      expect(session, 'still signed in').not.toBeNull();
      consoleTokens.add(session?.token.refresh_token);
      hubTokens.add(session?.hub?.tokens.refresh);
    }
    await page.waitForTimeout(1_000);
  }
  expect(renewals.refused(), 'every renewal was answered with tokens').toEqual([]);

  // Both tabs still work with what they hold, after a full load as well.
  for (const tab of [page, second]) {
    await tab.reload();
    await goTo(tab, 'Security Audit');
    await expect(tab.getByTestId('audit-row').first()).toBeVisible();
    await expect(tab.getByTestId('logout-notice')).toHaveCount(0);
  }
  await expectLive(page.request, await readSession(second));
  expect(secondErrors).toEqual([]);
});

/**
 * Lets the first request to `url` reach its program, then holds the answer back from the page
 * (the server has rotated the token; the tab never learns it). Later requests go through.
 */
async function holdFirstAnswer(page: Page, url: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
    void page.route(url, async (route) => {
      if (held || route.request().method() !== 'POST') return route.fallback();
      held = true;
      try {
        resolve(await (await route.fetch()).json());
      } catch (error) {
        reject(error);
      }
      await released;
      // The tab that asked has been reloaded: nobody waits for this answer any more.
      await route.abort().catch(() => undefined);
    });
  });
  return { answer, release };
}

test('a tab reloaded in the middle of a renewal stays signed in with the tokens that renewal made', async ({ page }) => {
  await signIn(page, ADMINS.alex.email);
  test.setTimeout(3 * (await renewalPeriod(page)) + 90_000);
  await goTo(page, 'Security Audit');

  // The console's renewal: the server rotates the refresh token, the page is reloaded before the answer arrives.
  const consoleRenewal = await holdFirstAnswer(page, REFRESH);
  const renewed = await consoleRenewal.answer;
  await page.reload();
  consoleRenewal.release();
  await expect(page.getByTestId('page-audit')).toBeVisible();
  // The reloaded page renewed the spent token again and got what the lost answer held.
  await expect.poll(async () => (await readSession(page))?.token.refresh_token).toBe(renewed.refresh_token);
  await expect(page.getByTestId('audit-row').first()).toBeVisible();

  // The Hub's renewal (after the console's, in the same renewal): lost the same way.
  const hubRenewal = await holdFirstAnswer(page, HUB_REFRESH);
  const hubRenewed = await hubRenewal.answer;
  await page.reload();
  hubRenewal.release();
  await expect(page.getByTestId('page-audit')).toBeVisible();
  await expect.poll(async () => (await readSession(page))?.hub?.tokens.refresh).toBe(hubRenewed.refresh);
  await goTo(page, 'Users');
  await goTo(page, 'Sharing');
  await expect(page.getByTestId('logout-notice')).toHaveCount(0);
  await expectLive(page.request, await readSession(page));
});
