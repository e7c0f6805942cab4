import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { navigate as plainNavigate } from 'wouter/use-hash-location';
import { type LogAddress, readAddress, writeAddress } from './address.ts';

/** The address the event log opened with (read once: afterwards the screen's state leads and the address follows). */
export function useInitialLogAddress(): LogAddress {
  const search = useSearch();
  const [initial] = useState(() => readAddress(search));
  return initial;
}

/**
 * Keeps the address in step with the screen's filters (replacing, so Back leaves the log rather
 * than stepping through each keystroke), and clears them from it when the admin goes to another
 * screen: hash routing keeps the query across pages, which must not inherit the log's filters.
 */
export function useLogAddressSync(address: LogAddress): void {
  const [location, navigate] = useLocation();
  const query = writeAddress(address);
  // biome-ignore lint/correctness/useExhaustiveDependencies: written when the filters' query changes
  useEffect(() => {
    if (new URLSearchParams(window.location.search).toString() !== query) navigate(`${location}?${query}`, { replace: true });
  }, [query]);
  useEffect(
    () => () => {
      const path = window.location.hash.replace(/^#/, '') || '/';
      if (window.location.search && path.split('?')[0] !== location) plainNavigate(`${path}?`, { replace: true });
    },
    [location],
  );
}
