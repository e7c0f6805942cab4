import type { PagerProps } from '../components/Pager.tsx';

export const PAGE_SIZE = 10;

/** Client-side pages of 10 over a fetched list. */
export const pageOf = <T>(items: readonly T[], page: number, size = PAGE_SIZE): T[] =>
  items.slice((page - 1) * size, page * size);
export const pageCount = (n: number, size = PAGE_SIZE): number => Math.max(1, Math.ceil(n / size));

/**
 * A list fetched whole and paged here (groups, a group's members): this page's rows, or undefined
 * while loading, and the pager under them (none while loading or empty).
 */
export function localPaging<T>(
  items: readonly T[] | undefined,
  page: number,
  onPage: (page: number) => void,
): { rows: T[] | undefined; pager: PagerProps | undefined } {
  if (!items) return { rows: undefined, pager: undefined };
  const rows = pageOf(items, page);
  return {
    rows,
    pager:
      items.length > 0 ? { page, pages: pageCount(items.length), total: items.length, shown: rows.length, onPage } : undefined,
  };
}
