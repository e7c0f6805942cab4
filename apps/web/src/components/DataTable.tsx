import { Checkbox, Skeleton, Stack, Table } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import './DataTable.css';
import { useDeferredValue } from 'react';
import { CardSort } from './CardSort.tsx';
import { RowCards } from './DataTableCards.tsx';
import { HeaderCell, SelectAll, toggle } from './data-table-parts.tsx';
import type { Column, DataTableProps, Sorting } from './data-table-types.ts';
import { Pager } from './Pager.tsx';
import { DataFetchError } from './StatusScreens.tsx';

export type { Column, Sorting };

/** Below this width (the spec's md, 768 px) every list shows its rows as cards, not a table. */
export const CARD_QUERY = '(max-width: 47.99em)';

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
  // placeholders) stay: one long task of ~100 ms on a cold /users load otherwise (blocking time).
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
      {/* With the rows, not under their placeholders: it would be pushed down when they arrive. */}
      {pager && rows && <Pager {...pager} />}
    </div>
  );
}
export { RowMenu } from './RowMenu.tsx';
