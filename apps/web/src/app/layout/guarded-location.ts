import { navigate, useHashLocation } from 'wouter/use-hash-location';
import { confirmLeave } from '../../lib/unsaved-changes.ts';

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
