import {
  ActionIcon,
  Box,
  Checkbox,
  Group,
  type MantineSpacing,
  Menu,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import './DataTable.css';
import { type ReactNode, useDeferredValue } from 'react';
import { useTranslation } from '../lib/use-translation.ts';
import { CardSort } from './CardSort.tsx';
import type { Column, Sorting } from './data-table-types.ts';
import { Pager, type PagerProps } from './Pager.tsx';
import { DataFetchError } from './StatusScreens.tsx';

export type { Column, Sorting };

/** Below this width (the spec's md, 768 px) every list shows its rows as cards, not a table. */
export const CARD_QUERY = '(max-width: 47.99em)';

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

/** Every list screen's table: columns as data, loading, empty, error, selection, sorting and paging. */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  testId,
  minWidth,
  error,
  onRetry,
  empty,
  emptyTestId,
  sort,
  selection,
  pager,
  skeletonRows = 5,
  highlightOnHover = true,
  cellSpacing,
}: DataTableProps<T>) {
  const cards = useMediaQuery(CARD_QUERY, false, { getInitialValueInEffect: false });
  // A page of rows is rendered in the background, in slices, while the previous rows (or their
  // placeholders) stay: one long task of ~100 ms on a cold /users load otherwise (issue 17, TBT).
  rows = useDeferredValue(rows);
  if (error) return <DataFetchError onRetry={() => onRetry?.()} />;
  if (cards)
    return (
      <div>
        {sort && <CardSort columns={columns} sort={sort} testId={testId} />}
        <RowCards
          columns={columns}
          rows={rows}
          rowKey={rowKey}
          rowProps={rowProps}
          testId={testId}
          selection={selection}
          skeletonRows={skeletonRows}
        />
        {rows?.length === 0 && (
          <Stack align="center" gap="xs" py="xl" data-testid={emptyTestId}>
            {empty}
          </Stack>
        )}
        {pager && rows && <Pager {...pager} />}
      </div>
    );
  return (
    <div>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing="sm" horizontalSpacing={cellSpacing} highlightOnHover={highlightOnHover} data-testid={testId}>
          <Table.Thead>
            <Table.Tr>
              {selection && (
                <Table.Th w={40}>
                  <SelectAll selection={selection} ids={(rows ?? []).map(rowKey)} />
                </Table.Th>
              )}
              {columns.map((c) => (
                <HeaderCell key={c.key} column={c} sort={sort} />
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {!rows
              ? Array.from({ length: skeletonRows }, (_, r) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                  <Table.Tr key={r} data-testid="skeleton-row">
                    {selection && <Table.Td />}
                    {columns.map((c) => (
                      <Table.Td key={c.key} visibleFrom={c.visibleFrom}>
                        <Skeleton h={16} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : rows.map((row) => {
                  const id = rowKey(row);
                  return (
                    <Table.Tr key={id} {...rowProps?.(row)}>
                      {selection && (
                        <Table.Td>
                          <Checkbox
                            aria-label={selection.rowLabel(row)}
                            checked={selection.selected.includes(id)}
                            onChange={() => selection.onChange(toggle(selection.selected, id))}
                            onClick={(e) => e.stopPropagation()}
                          />
                        </Table.Td>
                      )}
                      {columns.map((c) => (
                        <Table.Td
                          key={c.key}
                          ta={c.align}
                          maw={c.maxWidth}
                          visibleFrom={c.visibleFrom}
                          style={c.nowrap ? { whiteSpace: 'nowrap' } : undefined}
                        >
                          {c.cell(row)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  );
                })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows?.length === 0 && (
        // Outside the sideways-scrolling area, so a phone sees the sentence and its action in full.
        <Stack align="center" gap="xs" py="xl" data-testid={emptyTestId}>
          {empty}
        </Stack>
      )}
      {/* With the rows, not under their placeholders: it would be pushed down when they arrive (issue 17). */}
      {pager && rows && <Pager {...pager} />}
    </div>
  );
}

/**
 * A phone's list: one card per row, with the row's headline and its actions on the first line
 * (always in reach, no sideways scrolling) and the other columns below it as label and value,
 * wrapping rather than cutting (badges whole, long emails broken at any point).
 */
function RowCards<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  testId,
  selection,
  skeletonRows,
}: Pick<DataTableProps<T>, 'columns' | 'rows' | 'rowKey' | 'rowProps' | 'testId' | 'selection'> & {
  skeletonRows: number;
}) {
  const { t } = useTranslation();
  // Columns a screen hides on small screens stay hidden on a card too.
  const shown = columns.filter((c) => !c.visibleFrom);
  const actions = shown.filter((c) => c.headerHidden);
  const fields = shown.filter((c) => !c.headerHidden);
  const primary = fields.find((c) => c.primary) ?? fields[0];
  const details = fields.filter((c) => c !== primary);
  const wrapAnywhere = { overflowWrap: 'anywhere', minWidth: 0 } as const;
  return (
    <Stack gap="sm" data-testid={testId} data-layout="cards">
      {selection && rows && rows.length > 0 && (
        <Group gap="sm" px="sm">
          <SelectAll selection={selection} ids={rows.map(rowKey)} />
          <Text size="sm">{selection.allLabel}</Text>
        </Group>
      )}
      {!rows
        ? Array.from({ length: skeletonRows }, (_, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cards have no identity
            <Paper key={r} withBorder p="sm" data-testid="skeleton-row">
              <Skeleton h={16} w="70%" />
              <Skeleton h={12} mt="xs" w="40%" />
            </Paper>
          ))
        : rows.map((row) => {
            const id = rowKey(row);
            const { style, ...props } = rowProps?.(row) ?? {};
            return (
              <Paper key={id} withBorder p="sm" data-row-card="" {...props} style={style}>
                <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                  <Group gap="sm" wrap="nowrap" align="flex-start" style={{ flex: 1, minWidth: 0 }}>
                    {selection && (
                      <Checkbox
                        mt={2}
                        aria-label={selection.rowLabel(row)}
                        checked={selection.selected.includes(id)}
                        onChange={() => selection.onChange(toggle(selection.selected, id))}
                        onClick={(e) => e.stopPropagation()}
                      />
                    )}
                    {primary && (
                      <Box style={{ ...wrapAnywhere, flex: 1 }} fw={500}>
                        {primary.cell(row)}
                      </Box>
                    )}
                  </Group>
                  {actions.length > 0 && (
                    // The row's actions stay where a thumb reaches them; a tap on them is not a tap on the card.
                    <Group gap={4} wrap="nowrap" onClick={(e) => e.stopPropagation()}>
                      {actions.map((c) => (
                        <Box key={c.key}>{c.cell(row)}</Box>
                      ))}
                    </Group>
                  )}
                </Group>
                {details.length > 0 && (
                  <Box
                    component="dl"
                    mt="xs"
                    mb={0}
                    style={{ display: 'grid', gridTemplateColumns: 'minmax(84px, max-content) 1fr', gap: '4px 12px' }}
                  >
                    {details.map((c) => (
                      <Box key={c.key} style={{ display: 'contents' }}>
                        <Text component="dt" size="xs" c="dimmed" style={wrapAnywhere}>
                          {t(c.header)}
                        </Text>
                        <Box component="dd" m={0} fz="sm" style={wrapAnywhere}>
                          {c.cell(row)}
                        </Box>
                      </Box>
                    ))}
                  </Box>
                )}
              </Paper>
            );
          })}
    </Stack>
  );
}

const toggle = (list: readonly string[], id: string): string[] =>
  list.includes(id) ? list.filter((v) => v !== id) : [...list, id];

/** Selects or clears this page's rows, keeping selections made on other pages. */
function SelectAll<T>({ selection, ids }: { selection: Selection<T>; ids: string[] }) {
  const picked = ids.filter((id) => selection.selected.includes(id)).length;
  const all = ids.length > 0 && picked === ids.length;
  return (
    <Checkbox
      aria-label={selection.allLabel}
      checked={all}
      indeterminate={picked > 0 && !all}
      onChange={() =>
        selection.onChange(
          all ? selection.selected.filter((id) => !ids.includes(id)) : [...new Set([...selection.selected, ...ids])],
        )
      }
    />
  );
}

function HeaderCell<T>({ column: c, sort }: { column: Column<T>; sort: Sorting | undefined }) {
  const { t } = useTranslation();
  const label = t(c.header);
  if (c.headerHidden)
    return (
      <Table.Th w={c.width} visibleFrom={c.visibleFrom}>
        <VisuallyHidden>{label}</VisuallyHidden>
      </Table.Th>
    );
  if (!c.sortable || !sort)
    return (
      <Table.Th w={c.width} ta={c.align} visibleFrom={c.visibleFrom}>
        {label}
      </Table.Th>
    );
  const active = sort.key === c.key;
  return (
    <Table.Th
      w={c.width}
      ta={c.align}
      visibleFrom={c.visibleFrom}
      aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}
    >
      <UnstyledButton onClick={() => sort.onSort(c.key)} fw={600} fz="sm" style={{ whiteSpace: 'nowrap' }}>
        {label} <span aria-hidden>{active ? (sort.desc ? '↓' : '↑') : '↕'}</span>
      </UnstyledButton>
    </Table.Th>
  );
}

/** The "⋯" menu at a row's end; `label` names it for screen readers ("Actions for …"). */
export function RowMenu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={label}>
          ⋯
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
