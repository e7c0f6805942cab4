import { type HubTokens, type LogoutReason, TOKEN_EXPIRY_MARGIN_MS, type TokenPair } from '@latchkey/contracts/client';
import { useSyncExternalStore } from 'react';

/** A signed-in console session: the server's tokens, and the Hub's when the team has one. */
export interface Session {
  email: string;
  team_slug: string;
  token: TokenPair;
  hub: {
    server_url: string;
    tokens: HubTokens;
    /** A renewal of the Hub's tokens failed (its answer may be lost): try again at this time (epoch ms). */
    retryAt?: number;
  } | null;
  /** The team has a Hub but it did not answer at sign-in. */
  hubUnreachable?: boolean;
}

const SESSION_KEY = 'latchkey.session';
const RETURN_KEY = 'latchkey.returnTo';
const REASON_KEY = 'latchkey.logoutReason';

let current: Session | null = read();
const listeners = new Set<() => void>();

function read(): Session | null {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export const getSession = (): Session | null => current;

/** The session as storage holds it now, which another tab may have renewed since this one last heard. */
export const storedSession = (): Session | null => read();

export function setSession(next: Session | null): void {
  current = next;
  if (next) localStorage.setItem(SESSION_KEY, JSON.stringify(next));
  else localStorage.removeItem(SESSION_KEY);
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const useSession = (): Session | null => useSyncExternalStore(subscribe, getSession);

/**
 * Runs `fn` whenever the session ends (sign-out, expiry, another tab signing out): what was fetched
 * for it must not be shown to whoever signs in next in this tab.
 */
export function onSessionEnd(fn: () => void): () => void {
  return subscribe(() => {
    if (!current) fn();
  });
}

// Another tab signing in or out changes this one too.
window.addEventListener('storage', (event) => {
  if (event.key === SESSION_KEY) {
    current = read();
    for (const l of listeners) l();
  }
});

/** True when the token should be renewed now: within the spec's two-minute margin of expiry. */
export const needsRefresh = (expiresAt: number, now = Date.now()): boolean => expiresAt - now <= TOKEN_EXPIRY_MARGIN_MS;

/** What the console renews next, and when: its own tokens at the margin, or first the Hub's after a failed renewal. */
export function nextRenewal(session: Session): { part: 'console' | 'hub'; at: number } {
  const consoleDue = session.token.expires_at - TOKEN_EXPIRY_MARGIN_MS;
  const hubRetry = session.hub?.retryAt;
  return hubRetry !== undefined && hubRetry < consoleDue ? { part: 'hub', at: hubRetry } : { part: 'console', at: consoleDue };
}

/** The path to return to after the next sign-in (spec §4: remembered unless manual or on login). */
export function rememberPath(path: string): void {
  // Sign-in pages and one-time links are no place to come back to.
  if (!/^\/(login|family|sso|email-verification|reset-password)(\/|\?|$)/.test(path)) sessionStorage.setItem(RETURN_KEY, path);
}

export function takeRememberedPath(): string | null {
  const path = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  return path;
}

export function setLogoutReason(reason: LogoutReason): void {
  sessionStorage.setItem(REASON_KEY, reason);
}

export function takeLogoutReason(): LogoutReason | null {
  const reason = sessionStorage.getItem(REASON_KEY) as LogoutReason | null;
  sessionStorage.removeItem(REASON_KEY);
  return reason;
}
