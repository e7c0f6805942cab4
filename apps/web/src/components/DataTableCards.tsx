import { Box, Checkbox, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.ts';
import { SelectAll, toggle } from './data-table-parts.tsx';
import type { DataTableProps } from './data-table-types.ts';

/**
 * A phone's list: one card per row, with the row's headline and its actions on the first line
 * (always in reach, no sideways scrolling) and the other columns below it as label and value,
 * wrapping rather than cutting (badges whole, long emails broken at any point).
 */
export function RowCards<T>({
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
