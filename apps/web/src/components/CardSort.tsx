import { Button, Group, NativeSelect } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.ts';
import type { Column, Sorting } from './data-table-types.ts';

/**
 * The phone cards' sort control (below 768 px there are no column headers to click): which column
 * and which direction, the same `onSort` the table's headers call — choosing another column sorts
 * by it, the direction button sorts the current one the other way.
 */
export function CardSort<T>({ columns, sort, testId }: { columns: readonly Column<T>[]; sort: Sorting; testId: string }) {
  const { t } = useTranslation();
  const sortable = columns.filter((c) => c.sortable && !c.headerHidden);
  if (sortable.length === 0) return null;
  const current = sortable.some((c) => c.key === sort.key) ? sort.key : '';
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap" mb="sm" data-testid={`${testId}-card-sort`}>
      <NativeSelect
        label={t('table.sort_by')}
        size="sm"
        style={{ flex: 1, minWidth: 0 }}
        value={current}
        onChange={(e) => {
          if (e.currentTarget.value) sort.onSort(e.currentTarget.value);
        }}
        data={[...(current ? [] : [{ value: '', label: '—' }]), ...sortable.map((c) => ({ value: c.key, label: t(c.header) }))]}
        data-testid="card-sort-column"
      />
      <Button
        variant="default"
        size="sm"
        disabled={!current}
        onClick={() => sort.onSort(sort.key)}
        aria-label={t(sort.desc ? 'table.sorted_descending' : 'table.sorted_ascending')}
        data-testid="card-sort-direction"
        data-direction={sort.desc ? 'descending' : 'ascending'}
      >
        <span aria-hidden>{sort.desc ? '↓' : '↑'}</span>
      </Button>
    </Group>
  );
}
