import type { MantineBreakpoint, MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';
import type { PagerProps } from './Pager.tsx';

/** One column, declared as data: the table draws its header, cells, skeleton and sort control. */
export interface Column<T> {
  key: string;
  /** i18n key of the header. */
  header: string;
  /** The header is for screen readers only (a row-actions column). */
  headerHidden?: boolean;
  cell: (row: T) => ReactNode;
  /** Clicking the header sorts by this column's key (the screen decides how: server or local). */
  sortable?: boolean;
  width?: number;
  /** The cell's widest extent; longer text truncates inside it. */
  maxWidth?: number;
  align?: 'right';
  nowrap?: boolean;
  /** The column is left out below this breakpoint (secondary detail on phones). */
  visibleFrom?: MantineBreakpoint;
  /**
   * The row's headline on a phone card (below 768 px each row is a card): by default the first
   * column with a visible header.
   */
  primary?: boolean;
}

export interface Sorting {
  key: string;
  desc: boolean;
  onSort: (key: string) => void;
}

/** Row checkboxes and the page's select-all; ids are kept by the screen (bulk actions act on them). */
export interface Selection<T> {
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  /** Accessible name of the select-all checkbox and of one row's checkbox. */
  allLabel: string;
  rowLabel: (row: T) => string;
}

/** Attributes a screen puts on a row: its test id and data-* for specs, a click that opens it. */
export type RowProps = { onClick?: () => void; style?: React.CSSProperties } & Record<`data-${string}`, string | undefined>;

export interface DataTableProps<T> {
  columns: readonly Column<T>[];
  /** Undefined while the first page loads: skeleton rows shaped like the columns. */
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  rowProps?: (row: T) => RowProps;
  testId: string;
  /** Below this width the table scrolls sideways instead of squeezing its columns. */
  minWidth: number;
  /** The query failed: data_fetch_error with Retry, in place of the table. */
  error?: boolean;
  onRetry?: () => void;
  /** What an empty list says, and the action that fills it (the screen's own). */
  empty: ReactNode;
  emptyTestId: string;
  sort?: Sorting;
  selection?: Selection<T>;
  /** Paging stays the screen's (server or local); the table only draws the pager. */
  pager?: PagerProps;
  skeletonRows?: number;
  highlightOnHover?: boolean;
  /** Space either side of each cell (Mantine's `xs` by default); a wide table of figures takes less. */
  cellSpacing?: MantineSpacing;
}
