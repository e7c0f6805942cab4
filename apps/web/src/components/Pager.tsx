import { Group, Pagination, Text } from '@mantine/core';
import { formatNumber } from '../lib/format.ts';
import { PAGE_SIZE, pageCount, pageOf } from '../lib/paging.ts';
import { useTranslation } from '../lib/use-translation.ts';

export interface PagerProps {
  /** The page shown, from 1. */
  page: number;
  /**
   * How many pages there are, when the screen can jump to any of them (offset paging). Left out
   * when the server pages by cursor: then only the neighbours are reachable, and `hasNext` says
   * whether there is one after this page.
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

/** The one pager under every list: the range on the left, the page controls on the right. */
export function Pager({ page, pages, hasNext, total, totalCapped, shown, onPage, rangeTestId = 'pager-range' }: PagerProps) {
  const { t } = useTranslation();
  const from = (page - 1) * PAGE_SIZE + 1;
  // The arrows have no text: their names come from here (no first/last controls are shown).
  const controlLabel = (control: string) =>
    control === 'previous' || control === 'next' ? { 'aria-label': t(`table.${control}`) } : {};
  return (
    <Group justify="space-between" gap="sm" mt="sm" data-testid="pager">
      <Text size="sm" c="dimmed" data-testid={rangeTestId}>
        {shown > 0 && total !== undefined
          ? t('table.range', {
              from: formatNumber(from),
              to: formatNumber(from + shown - 1),
              total: `${formatNumber(total)}${totalCapped ? '+' : ''}`,
            })
          : '\u00a0'}
      </Text>
      {pages !== undefined ? (
        pages > 1 && <Pagination total={pages} value={page} onChange={onPage} size="sm" getControlProps={controlLabel} />
      ) : (
        // Cursor paging: a next page exists only when the server handed out a cursor for it.
        <Pagination.Root total={hasNext ? page + 1 : page} value={page} onChange={onPage} size="sm">
          <Group gap="xs" wrap="nowrap">
            <Pagination.Previous {...controlLabel('previous')} />
            <Text size="sm" aria-live="polite">
              {t('table.page', { n: formatNumber(page) })}
            </Text>
            <Pagination.Next {...controlLabel('next')} />
          </Group>
        </Pagination.Root>
      )}
    </Group>
  );
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
