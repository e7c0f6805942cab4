import { type HubTokens, hubUrlProblem, type LoginSuccess, type LogoutReason } from '@latchkey/contracts/client';
import { handleSessionLost, refreshSession, routeTable } from './api.ts';
import { ApiError } from './api-error.ts';
import { deviceInfo } from './device.ts';
import {
  getSession,
  nextRenewal,
  rememberPath,
  type Session,
  setLogoutReason,
  setSession,
  takeRememberedPath,
} from './session.ts';

/** What the console tells the server and Hub about this browser (lib/device.ts). */
export { deviceInfo };

type Navigate = (path: string) => void;
let navigate: Navigate = (path) => {
  window.location.hash = `#${path}`;
};
/** The router registers itself so logout can move without reloading. */
export const setNavigator = (fn: Navigate): void => {
  navigate = fn;
};

const currentPath = (): string => window.location.hash.replace(/^#/, '') || '/';

/**
 * Ends the session for a reason of spec §4 and goes to /login, remembering where the admin was.
 * The session is cleared first, so the many calls failing at once after an expiry log out once.
 * `toTeam`: the team a team switch goes to, for the event log.
 */
export function logout(reason: LogoutReason, next = '/login', toTeam?: string): void {
  const session = getSession();
  stopRefresh();
  if (reason !== 'manual_logout' && reason !== 'team_switch') rememberPath(currentPath());
  setSession(null);
  if (reason !== 'team_switch') setLogoutReason(reason);
  navigate(next);
  if (session) {
    // Best effort: the server revokes the session; its answer changes nothing here.
    void routeTable()
      .then((routes) =>
        fetch(routes.signout.path, {
          method: 'POST',
          headers: { authorization: `Bearer ${session.token.access}`, 'content-type': 'application/json' },
          // The reason lets the server record a team switch as its own event.
          body: JSON.stringify({ reason, ...(toTeam ? { to_team: toTeam } : {}) }),
        }),
      )
      .catch(() => undefined);
  }
}

handleSessionLost(() => {
  if (getSession()) logout('session_expired');
});

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Exchanges the sign-in's aux code for Hub tokens; a Hub that does not answer leaves the console usable. */
async function hubTokens(success: LoginSuccess): Promise<Session['hub']> {
  const aux = success.aux_code;
  // Only https Hubs, except a loopback http Hub for a console itself served from this machine.
  if (!aux || hubUrlProblem(aux.server_url, { allowLoopbackHttp: LOOPBACK.test(window.location.hostname) })) return null;
  try {
    const response = await fetch(`${aux.server_url}${(await routeTable()).hubToken.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${aux.access}`, 'content-type': 'application/json' },
      body: JSON.stringify({ team_slug: aux.team_slug, device: deviceInfo() }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) return null;
    return { server_url: aux.server_url, tokens: (await response.json()) as HubTokens };
  } catch {
    return null;
  }
}

/** Stores the new session and goes to the remembered path or '/' (spec §4 Login sequence). */
export async function completeSignIn(success: LoginSuccess, email: string): Promise<void> {
  const hub = await hubTokens(success);
  setSession({
    email,
    team_slug: success.team_slug,
    token: success.token,
    hub,
    hubUnreachable: Boolean(success.aux_code && !hub),
  });
  navigate(takeRememberedPath() ?? '/');
}

let timer: ReturnType<typeof setTimeout> | undefined;
/** Renewals failed in a row (not refused: the network, or a program unavailable). */
let failures = 0;
/**
 * The first retry comes inside the programs' grace window for a just-rotated refresh token: the
 * answer may have been lost after the server rotated it, and the same token then still gets it.
 */
const RETRY_SOON_MS = 3_000;
const RETRY_MS = 15_000;

export function stopRefresh(): void {
  clearTimeout(timer);
  timer = undefined;
}

/** Keeps the tokens fresh: renews about two minutes before the access token expires (the Hub's with them). */
export function scheduleRefresh(): () => void {
  stopRefresh();
  const session = getSession();
  if (!session) return stopRefresh;
  const next = nextRenewal(session);
  const renew = () =>
    refreshSession(next.part)
      .then(() => {
        failures = 0;
        scheduleRefresh();
      })
      .catch((error) => {
        if (!getSession()) return;
        if (error instanceof ApiError && error.status === 401) logout('session_expired');
        else {
          failures += 1;
          timer = setTimeout(() => void scheduleRefresh(), failures === 1 ? RETRY_SOON_MS : RETRY_MS);
        }
      });
  timer = setTimeout(() => void renew(), Math.max(0, next.at - Date.now()));
  return stopRefresh;
}
