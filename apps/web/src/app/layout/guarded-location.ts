import { navigate, useHashLocation } from 'wouter/use-hash-location';
import { confirmLeave, hasUnsavedChanges } from '../../lib/unsaved-changes.ts';

type NavigateOptions = Parameters<typeof navigate>[1];

/** In-app navigation that asks about unsaved changes first (spec §2 Policy). */
const guardedNavigate = (to: string, options?: NavigateOptions): void => {
  void confirmLeave().then((leave) => {
    if (leave) navigate(to, options);
  });
};

/**
 * The console's location hook: hash routing whose navigate (links, redirects) waits for the
 * unsaved-changes decision. Sign-out and session loss use the plain one, so they never ask.
 */
export function useGuardedHashLocation(): [string, typeof guardedNavigate] {
  const [location] = useHashLocation();
  return [location, guardedNavigate];
}
// Links render as #/path, as the root router's do.
useGuardedHashLocation.hrefs = (href: string): string => `#${href}`;

/** The address the console shows; the browser's Back / Forward may move away from it. */
let shown = window.location.href;
const remember = (): void => {
  shown = window.location.href;
};

/**
 * Back, Forward or an edited address change the URL before any code can refuse it, and the
 * router reads it on the popstate that comes first. While there are unsaved changes the shown
 * address is put back at once (capture: before the router's listener), then the admin is asked;
 * leaving goes where the browser was going. Only the browser's own (trusted) events are held:
 * the console's own navigations have already asked.
 */
function holdBrowserNavigation(event: PopStateEvent): void {
  if (!event.isTrusted || window.location.href === shown || !hasUnsavedChanges()) return;
  const target = window.location.hash.replace(/^#/, '') || '/';
  history.pushState(history.state, '', shown);
  void confirmLeave().then((leave) => {
    if (leave) navigate(target);
  });
}

export function installBrowserNavigationGuard(): () => void {
  remember();
  window.addEventListener('popstate', holdBrowserNavigation, { capture: true });
  window.addEventListener('hashchange', remember);
  return () => {
    window.removeEventListener('popstate', holdBrowserNavigation, { capture: true });
    window.removeEventListener('hashchange', remember);
  };
}
