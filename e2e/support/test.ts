import { test as base, expect } from '@playwright/test';
import { SERVER_URL } from './env.ts';

let clients = 0;

/**
 * The suite's `test`. Every page fails its test on an uncaught exception, when the console's
 * error boundary has shown its page-error screen (errors the admin would only see as a broken
 * screen), or on a 429 (the suite must not be throttled, or its failures mean nothing). The
 * browser console's errors and failed requests are attached to failed tests.
 */
export const test = base.extend<{ pageChecks: undefined }>({
  /**
   * Each test's browser is its own client machine, with its own address (the server runs with
   * TRUST_PROXY): the server limits requests per client address, and the whole suite from one
   * address would exceed it (one sign-in with its page loads costs ~36 requests of 600 a minute).
   */
  context: async ({ context }, use, testInfo) => {
    clients += 1;
    const address = `10.${testInfo.parallelIndex + 1}.${(clients >> 8) & 255}.${clients & 255}`;
    await context.route(`${SERVER_URL}/**`, async (route) =>
      route.continue({ headers: { ...(await route.request().allHeaders()), 'x-forwarded-for': address } }),
    );
    await use(context);
  },
  pageChecks: [
    async ({ page }, use, testInfo) => {
      const uncaught: string[] = [];
      const consoleErrors: string[] = [];
      const throttled: string[] = [];
      const failed: string[] = [];
      page.on('pageerror', (error) => uncaught.push(`${error.name}: ${error.message}\n${error.stack ?? ''}`));
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
      });
      page.on('response', (response) => {
        if (response.status() === 429) throttled.push(response.url());
        if (response.status() >= 400) failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
      });
      page.on('requestfailed', (request) => failed.push(`${request.failure()?.errorText} ${request.method()} ${request.url()}`));
      await use(undefined);
      if (testInfo.status !== testInfo.expectedStatus) {
        const body = [...consoleErrors, '', 'Requests that failed:', ...failed].join('\n');
        await testInfo.attach('browser console errors and failed requests', { body, contentType: 'text/plain' });
      }
      const boundary = page.isClosed()
        ? null
        : await page.evaluate<string | null>('document.documentElement.dataset.globalError ?? null').catch(() => null);
      expect(uncaught, 'uncaught errors in the page').toEqual([]);
      expect(throttled, 'requests refused with 429 Too Many Requests').toEqual([]);
      expect(boundary, `the console's error boundary showed the page-error screen:\n${consoleErrors.join('\n')}`).toBeNull();
    },
    { auto: true },
  ],
});

export { expect };
