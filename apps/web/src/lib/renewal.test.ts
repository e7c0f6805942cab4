import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Session } from './session.ts';

/**
 * The part of the Web Locks API the console uses, as the WHATWG standard describes it (happy-dom
 * has none): `request(name, callback)` in exclusive mode runs the callbacks asking for one name one
 * at a time, in the order they asked; the lock is held until the callback's promise settles, and
 * `request` answers what it answered.
 */
function lockManager() {
  const queues = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, callback: (lock: { name: string; mode: 'exclusive' }) => Promise<T>): Promise<T> {
      const granted = (queues.get(name) ?? Promise.resolve()).then(() => callback({ name, mode: 'exclusive' }));
      queues.set(
        name,
        granted.catch(() => undefined),
      );
      return granted;
    },
  };
}

const SESSION_KEY = 'latchkey.session';
const HUB_URL = 'https://hub.northwind.example';

const pair = (refresh: string, lifetimeMs = 300_000) => ({
  access: `access-of-${refresh}`,
  refresh_token: refresh,
  expires_at: Date.now() + lifetimeMs,
  refresh_expires_at: Date.now() + 3_600_000,
});
const hubTokens = (refresh: string, lifetimeMs = 300_000) => ({
  access: `access-of-${refresh}`,
  refresh,
  expires_at: Date.now() + lifetimeMs,
  refresh_expires_at: Date.now() + 3_600_000,
  hub_version: '2.2.0',
});

/**
 * One program's refresh endpoint as the programs keep it: each token rotates once; the token just
 * spent is answered again with the same successor for 10 s (the grace window); any other is refused.
 */
function rotation(prefix: string) {
  let live = `${prefix}-0`;
  let previous: { token: string; at: number } | null = null;
  let minted = 0;
  return {
    live: () => live,
    spend(token: string | null): string | null {
      if (token === previous?.token && Date.now() - previous.at < 10_000) return live;
      if (token !== live) return null;
      previous = { token: live, at: Date.now() };
      minted += 1;
      live = `${prefix}-${minted}`;
      return live;
    },
  };
}

/** The server's and the Hub's refresh endpoints (400 invalid_grant when refused), counting the renewals that reach them. */
function refreshServers() {
  const consoleTokens = rotation('refresh');
  const hub = rotation('hub-refresh');
  const seen = {
    renewals: 0,
    hubRenewals: 0,
    atOnce: 0,
    mostAtOnce: 0,
    failNext: false,
    loseNextAnswer: false,
    loseNextHubAnswer: false,
  };
  const reply = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const refused = () => reply(400, { code: 'invalid_grant', description: 'The session has ended. Sign in again.' });
  const fetch = async (url: string, init: RequestInit) => {
    if (url === `${HUB_URL}/auth/token/refresh/`) {
      seen.hubRenewals += 1;
      const next = hub.spend((JSON.parse(String(init.body)) as { refresh: string }).refresh);
      if (seen.loseNextHubAnswer) {
        // The Hub rotated the token, but its answer never reached the page.
        seen.loseNextHubAnswer = false;
        throw new TypeError('Failed to fetch');
      }
      return next ? reply(200, hubTokens(next)) : refused();
    }
    expect(url).toBe('/oauth/refresh/token/');
    seen.renewals += 1;
    seen.atOnce += 1;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.atOnce);
    // The network: long enough for another tab's renewal to start meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 20));
    seen.atOnce -= 1;
    if (seen.failNext) {
      seen.failNext = false;
      return reply(503, { code: 'unavailable', description: 'Try again.' });
    }
    const next = consoleTokens.spend(new URLSearchParams(String(init.body)).get('refresh_token'));
    if (seen.loseNextAnswer) {
      seen.loseNextAnswer = false;
      throw new TypeError('Failed to fetch');
    }
    return next ? reply(200, pair(next)) : refused();
  };
  return { fetch, seen, live: consoleTokens.live, hubLive: hub.live };
}

/** A console tab: its own copy of the modules (and of the session it holds in memory), the shared storage. */
async function openTab() {
  vi.resetModules();
  return { api: await import('./api.ts'), session: await import('./session.ts') };
}

const stored = (): Session => JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null') as Session;

let server: ReturnType<typeof refreshServers>;

/** The shared session: the console's tokens and the Hub's, expiring that long from now. */
function signedIn(hubLifetimeMs = 300_000, consoleLifetimeMs = 300_000) {
  const session: Session = {
    email: 'alex@northwind.example',
    team_slug: 'northwind',
    token: pair('refresh-0', consoleLifetimeMs),
    hub: { server_url: HUB_URL, tokens: hubTokens('hub-refresh-0', hubLifetimeMs) },
  };
  localStorage.setItem(SESSION_KEY, JSON.stringify(session));
}

beforeEach(() => {
  // happy-dom has no Web Locks (navigator.locks is null), so the tabs share this in-memory lock manager.
  vi.spyOn(navigator, 'locks', 'get').mockReturnValue(lockManager() as unknown as LockManager);
  server = refreshServers();
  vi.stubGlobal('fetch', server.fetch);
  signedIn();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('renewing the session shared by the tabs of one browser', () => {
  it('two tabs renewing at once send one renewal; the second takes the new tokens from storage', async () => {
    const first = await openTab();
    const second = await openTab();
    const [a, b] = await Promise.all([first.api.refreshSession(), second.api.refreshSession()]);
    expect(server.seen.renewals).toBe(1);
    expect(server.seen.hubRenewals).toBe(1);
    expect(a.token.refresh_token).toBe(server.live());
    expect(a.hub?.tokens.refresh).toBe(server.hubLive());
    expect(b).toEqual(a);
    expect(stored()).toEqual(a);
    expect(second.session.getSession()).toEqual(a);
  });

  it('round after round, whichever tab goes first, one renewal at a time reaches the server', async () => {
    const first = await openTab();
    const second = await openTab();
    const third = await openTab();
    const round1 = await Promise.all([first, second, third].map((tab) => tab.api.refreshSession()));
    const round2 = await Promise.all([third, first, second].map((tab) => tab.api.refreshSession()));
    expect(server.seen.mostAtOnce).toBe(1);
    expect(server.seen.renewals).toBe(2);
    for (const [round, live] of [
      [round1, 'refresh-1'],
      [round2, 'refresh-2'],
    ] as const) {
      expect(round.map((s) => s.token.refresh_token)).toEqual([live, live, live]);
    }
    expect(stored().token.refresh_token).toBe('refresh-2');
  });

  it('a tab that has not heard of another tab’s renewal takes the stored tokens instead of spending its own again', async () => {
    const first = await openTab();
    const second = await openTab();
    const renewed = await first.api.refreshSession();
    // The second tab still holds the spent token in memory (no storage event reached it yet).
    expect(second.session.getSession()?.token.refresh_token).toBe('refresh-0');
    expect(await second.api.refreshSession()).toEqual(renewed);
    expect(server.seen.renewals).toBe(1);
  });

  it('a renewal that fails lets the next tab renew with the same token', async () => {
    const first = await openTab();
    const second = await openTab();
    server.seen.failNext = true;
    const [a, b] = await Promise.allSettled([first.api.refreshSession(), second.api.refreshSession()]);
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('fulfilled');
    expect(stored().token.refresh_token).toBe(server.live());
    expect(server.live()).toBe('refresh-1');
  });

  it('renews the Hub’s tokens with the console’s when they would expire before the new console tokens', async () => {
    localStorage.clear();
    // Three minutes left: not yet within the two-minute margin, but gone before the console's next renewal.
    signedIn(180_000);
    const tab = await openTab();
    const renewed = await tab.api.refreshSession();
    expect(server.seen.hubRenewals).toBe(1);
    expect(renewed.hub?.tokens.refresh).toBe('hub-refresh-1');
    expect(renewed.hub?.tokens.expires_at).toBeGreaterThanOrEqual(renewed.token.expires_at - 1_000);
  });

  it('a Hub answer lost on the way: the console keeps its new tokens and asks the Hub again within seconds, then has them', async () => {
    const tab = await openTab();
    server.seen.loseNextHubAnswer = true;
    const renewed = await tab.api.refreshSession();
    expect(renewed.token.refresh_token).toBe('refresh-1');
    // The Hub's old tokens are kept, with a retry planned well inside the Hub's 10-second grace window.
    expect(renewed.hub?.tokens.refresh).toBe('hub-refresh-0');
    expect(renewed.hub?.retryAt).toBeLessThanOrEqual(Date.now() + 5_000);
    expect(tab.session.nextRenewal(stored())).toEqual({ part: 'hub', at: renewed.hub?.retryAt });

    // The retry (the Hub alone) sends the same token and gets the successor the lost answer held.
    const retried = await tab.api.refreshSession('hub');
    expect(retried.hub?.tokens.refresh).toBe('hub-refresh-1');
    expect(retried.hub?.retryAt).toBeUndefined();
    expect(retried.token).toEqual(renewed.token);
    expect(server.seen.renewals).toBe(1);
    expect(server.seen.hubRenewals).toBe(2);
    expect(tab.session.nextRenewal(stored()).part).toBe('console');
  });

  it('an idle tab whose renewal answer was lost asks again inside the grace window, and gets it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    localStorage.clear();
    // Due now: the access token is within the two-minute margin.
    signedIn(300_000, 120_000);
    await openTab();
    const { scheduleRefresh, stopRefresh } = await import('./auth.ts');
    server.seen.loseNextAnswer = true;
    scheduleRefresh();
    await vi.advanceTimersByTimeAsync(100);
    // The server rotated the token; the tab never heard.
    expect(server.seen.renewals).toBe(1);
    expect(stored().token.refresh_token).toBe('refresh-0');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.seen.renewals).toBe(2);
    expect(stored().token.refresh_token).toBe('refresh-1');
    stopRefresh();
  });
});
