import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/**
 * The state a list screen keeps: the search as typed, the term it asks for (trimmed; debounced
 * unless `debounceMs` is 0, for a list filtered in the browser), the page and the selected rows.
 * `initialSearch` is a search the screen opens with (one in its address).
 * A new term starts again at page 1 with nothing selected (spec §4: paging resets when the search changes).
 */
export function useListState({ debounceMs = 300, initialSearch = '' }: { debounceMs?: number; initialSearch?: string } = {}) {
  const [search, setSearch] = useState(initialSearch);
  const [debounced] = useDebouncedValue(search.trim(), debounceMs);
  const term = debounceMs === 0 ? search.trim() : debounced;
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on every change of the term
  useEffect(() => {
    setPage(1);
    setSelected([]);
  }, [term]);
  return { search, setSearch, term, page, setPage, selected, setSelected };
}
