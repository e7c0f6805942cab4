import { expect, type Locator, type Page } from '@playwright/test';
import { latestCode, mailCursor, withMailLock } from './mail.ts';

/** The demo seed's shared password (apps/server/src/features/demo/seed.ts). */
export const DEMO_PASSWORD = 'Latchkey-demo-2026';

export const NORTHWIND = { slug: 'northwind', name: 'Northwind Traders' } as const;
export const FAMILY = { slug: 'sam-family', name: 'The Okafor Family' } as const;

/**
 * The demo administrators, one per scope, and where each lands after signing in (spec §4).
 * The specs spread their sign-ins over them: one account's sign-ins take turns (only its newest
 * emailed code is valid), and the server allows five unused codes per account in 15 minutes.
 */
export const ADMINS = {
  alex: { email: 'alex@northwind.example', name: 'Alex Morgan', scope: 'super_admin', landing: '/dashboard' },
  adam: { email: 'adam@northwind.example', name: 'Adam Novak', scope: 'admin', landing: '/dashboard' },
  ivy: { email: 'ivy@northwind.example', name: 'Ivy Chen', scope: 'integrator', landing: '/integration' },
  rory: { email: 'rory@northwind.example', name: 'Rory Walsh', scope: 'recovery_agent', landing: '/recovery' },
  /** Admin of Northwind, super admin of the family team: sees the team selector. */
  sam: { email: 'sam@northwind.example', name: 'Sam Okafor', scope: 'admin', landing: '/dashboard' },
} as const;

/** Matches a page URL whose hash route is exactly `path` (optionally with a query). */
export const atRoute = (path: string): RegExp => new RegExp(`/#${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\?.*)?$`);

export const continueButton = (page: Page): Locator => page.getByRole('button', { name: 'Continue' });
export const emailInput = (page: Page): Locator => page.getByLabel('Work email');
export const passwordInput = (page: Page): Locator => page.getByLabel('Password', { exact: true });
export const codeBox = (page: Page, n: number): Locator => page.getByLabel(`Digit ${n} of 6`, { exact: true });

/** Types a code into the six boxes, one digit per box; the last digit submits it. */
export async function enterCode(page: Page, code: string): Promise<void> {
  for (const [i, digit] of [...code].entries()) await codeBox(page, i + 1).fill(digit);
}

export interface SignInOptions {
  /** The team to choose when the email administers several (its display name). */
  team?: string;
  password?: string;
  /** Where the sign-in should end; the admin's landing page by default. */
  expectPath?: string;
  /** Open /login first (default); false continues from the page already shown. */
  open?: boolean;
}

function landingOf(email: string): string | undefined {
  return Object.values(ADMINS).find((a) => a.email === email)?.landing;
}

/** From /login/verify-password: the password, then the emailed code, until the console shows `expectPath`. */
export async function passwordAndCode(page: Page, email: string, options: SignInOptions = {}): Promise<void> {
  await expect(page).toHaveURL(atRoute('/login/verify-password'));
  await withMailLock(email, async () => {
    const after = await mailCursor();
    await passwordInput(page).fill(options.password ?? DEMO_PASSWORD);
    await continueButton(page).click();
    await expect(page).toHaveURL(atRoute('/login/verify-otp'));
    await enterCode(page, await latestCode(email, { after }));
    await expect(page).not.toHaveURL(/#\/login/);
  });
  const expected = options.expectPath ?? landingOf(email);
  if (expected) await expect(page).toHaveURL(atRoute(expected));
}

/** The real sign-in: email → (team) → password → the emailed six-digit code → the landing page. */
export async function signIn(page: Page, email: string, options: SignInOptions = {}): Promise<void> {
  if (options.open ?? true) await page.goto('/#/login');
  await expect(page).toHaveURL(atRoute('/login'));
  await emailInput(page).fill(email);
  await continueButton(page).click();
  if (options.team) {
    await page.getByRole('radio', { name: options.team }).check();
    await continueButton(page).click();
  }
  await passwordAndCode(page, email, options);
}

/** The stored console session (spec §3 Tokens), as the console keeps it in localStorage. */
export interface StoredSession {
  email: string;
  team_slug: string;
  token: { access: string; refresh_token: string; expires_at: number; refresh_expires_at: number };
  hub: {
    server_url: string;
    tokens: { access: string; refresh: string; expires_at: number; refresh_expires_at: number; hub_version: string };
  } | null;
}

export const SESSION_KEY = 'latchkey.session';

export async function readSession(page: Page): Promise<StoredSession | null> {
  const raw = await page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(SESSION_KEY)})`);
  return raw ? (JSON.parse(raw) as StoredSession) : null;
}

/**
 * Starts the browser's clock a minute behind real time (it then runs as usual). The suite's
 * access tokens live 130 s, so the console would renew ~10 s after a sign-in; held back, that
 * renewal happens only when the test moves the clock on with `page.clock.fastForward`, at the
 * moment the test chooses. Call before the first page load.
 */
export async function holdBackRenewals(page: Page): Promise<void> {
  await page.clock.install({ time: Date.now() - 60_000 });
}

/** Opens the profile menu in the top bar. */
export async function openProfileMenu(page: Page): Promise<Locator> {
  await page.getByTestId('profile-menu').click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}

/** The sidebar's navigation (its items are links named by their label). */
export const sidebarNav = (page: Page): Locator => page.getByRole('navigation', { name: 'Console sections' });

/**
 * Records whether any of `texts` ever appears on the page (toasts come and go): call before the
 * page loads, read with `seenTexts`.
 */
export async function watchForTexts(page: Page, texts: string[]): Promise<void> {
  await page.addInitScript(`(() => {
    const wanted = ${JSON.stringify(texts)};
    const seen = (window.__seenTexts = window.__seenTexts || []);
    const check = () => {
      const text = document.body ? document.body.innerText : '';
      for (const w of wanted) if (!seen.includes(w) && text.includes(w)) seen.push(w);
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  })();`);
}

export async function seenTexts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('window.__seenTexts || []');
}

/**
 * Marks the family team's trial popup as seen today (features/dashboard/rules.ts), as an admin who
 * closed it would: the seeded trial ends in two days, and its once-a-day popup would otherwise
 * cover the page of a test that is about something else.
 */
export async function familyTrialPopupSeen(page: Page): Promise<void> {
  const seen = [`latchkey.trialPopup.${FAMILY.slug}`, new Date().toISOString().slice(0, 10)];
  await page.addInitScript({ content: `localStorage.setItem(${seen.map((v) => JSON.stringify(v)).join(', ')});` });
}

/**
 * Flips a Mantine switch as a person does: by clicking its visible track. The switch's input is
 * 0×0 and hidden, so clicking it needs `force`, which skips Playwright's wait for a stable
 * layout: a card that grows above the switch then moves it, and the click lands elsewhere.
 */
export async function flipSwitch(input: Locator): Promise<void> {
  const id = await input.getAttribute('id');
  if (!id) throw new Error('flipSwitch: the switch input has no id');
  await input.page().locator(`label[for="${id}"]`).first().click();
}
