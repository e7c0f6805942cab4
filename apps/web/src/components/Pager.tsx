import { Group, Pagination, Text } from '@mantine/core';
import { formatNumber } from '../lib/format.ts';
import { PAGE_SIZE, pageCount, pageOf } from '../lib/paging.ts';
import { useTranslation } from '../lib/use-translation.ts';

export interface PagerProps {
  /** The page shown, from 1. */
  page: number;
  /**
   * How many pages there are, when the screen can jump to any of them (offset paging). Left out
   * when the server pages by cursor: then the pages up to this one and the next (`hasNext`) are
   * reachable, and the pages after it, counted from `total` when known, are shown disabled.
   */
  pages?: number;
  hasNext?: boolean;
  /** Rows in the whole list, when known; the range reads "11–20 of 27". */
  total?: number;
  /** The total is a count that stopped at its cap: the range reads "of 10,000+". */
  totalCapped?: boolean;
  /** Rows on this page. */
  shown: number;
  onPage: (page: number) => void;
  /** The range text's test id (specs read it). */
  rangeTestId?: string;
}

/**
 * The one pager under every list (UI.md: the numbered one with the total): the range on the left,
 * the numbered pages on the right, for offset and cursor paging alike.
 */
export function Pager({ page, pages, hasNext, total, totalCapped, shown, onPage, rangeTestId = 'pager-range' }: PagerProps) {
  const { t } = useTranslation();
  const from = (page - 1) * PAGE_SIZE + 1;
  const { count, reachable } = pagerPages({ page, pages, hasNext, total });
  // The arrows have no text: their names come from here (no first/last controls are shown).
  const controlProps = (control: string) => {
    if (control === 'previous') return { 'aria-label': t('table.previous') };
    if (control === 'next') return { 'aria-label': t('table.next'), disabled: page >= reachable };
    return {};
  };
  return (
    <Group justify="space-between" gap="sm" mt="sm" data-testid="pager">
      <Text size="sm" c="dimmed" data-testid={rangeTestId} aria-live="polite">
        {shown > 0 && total !== undefined
          ? t('table.range', {
              from: formatNumber(from),
              to: formatNumber(from + shown - 1),
              total: `${formatNumber(total)}${totalCapped ? '+' : ''}`,
            })
          : '\u00a0'}
      </Text>
      {count > 1 && (
        <Pagination
          total={count}
          value={page}
          onChange={onPage}
          size="sm"
          getControlProps={controlProps}
          getItemProps={(n) => (n > reachable ? { disabled: true } : {})}
        />
      )}
    </Group>
  );
}

/**
 * How many numbered pages the pager shows, and the last one it can open: every page with offset
 * paging; with cursor paging the pages so far and the next, the rest (counted from the total)
 * shown but disabled.
 */
export function pagerPages({ page, pages, hasNext, total }: Pick<PagerProps, 'page' | 'pages' | 'hasNext' | 'total'>): {
  count: number;
  reachable: number;
} {
  if (pages !== undefined) return { count: pages, reachable: pages };
  const reachable = hasNext ? page + 1 : page;
  return { count: Math.max(reachable, total !== undefined ? pageCount(total) : 0), reachable };
}

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
