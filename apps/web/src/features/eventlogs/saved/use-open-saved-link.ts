import { useEffect, useState } from 'react';
import { addressHasFilters, type LogAddress } from '../log/address.ts';
import { type SavedSearch, useSavedSearchesQuery } from './saved-searches-api.ts';

/**
 * A link to a saved search (`?saved=<id>` and no filters) opens it once the list has come: its
 * filters apply. One the admin cannot see (deleted, or another admin's private one) is `lost`.
 */
export function useOpenSavedLink(initial: LogAddress, open: (s: SavedSearch) => void, lost: () => void): void {
  const list = useSavedSearchesQuery();
  const [pending, setPending] = useState(initial.saved && !addressHasFilters(initial) ? initial.saved : null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the list arrives, once per link
  useEffect(() => {
    if (!pending || !list.data) return;
    setPending(null);
    const found = list.data.find((s) => s.id === pending);
    if (found) open(found);
    else lost();
  }, [pending, list.data]);
}
