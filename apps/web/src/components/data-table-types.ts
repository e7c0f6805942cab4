import type { MantineBreakpoint } from '@mantine/core';
import type { ReactNode } from 'react';

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
