import { Group, Pagination, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';

/** Rows of grey bars shaped like the table, while its first page loads. */
export function SkeletonRows({ columns, rows = 5 }: { columns: number; rows?: number }) {
  return Array.from({ length: rows }, (_, r) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
    <Table.Tr key={r}>
      {Array.from({ length: columns }, (_, c) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
        <Table.Td key={c}>
          <Skeleton h={16} />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}

/** A column header that sorts by its field; it says its direction to screen readers too. */
export function SortableTh({
  label,
  active,
  desc,
  onSort,
  numeric,
}: {
  label: string;
  active: boolean;
  desc: boolean;
  onSort: () => void;
  numeric?: boolean;
}) {
  return (
    <Table.Th aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'} ta={numeric ? 'right' : undefined}>
      <UnstyledButton onClick={onSort} fw={600} fz="sm" style={{ whiteSpace: 'nowrap' }}>
        {label} <span aria-hidden>{active ? (desc ? '↓' : '↑') : '↕'}</span>
      </UnstyledButton>
    </Table.Th>
  );
}

/** The total and page links under a table (page size 10). */
export function Pager({
  total,
  pages,
  page,
  onPage,
}: {
  total: number;
  pages: number;
  page: number;
  onPage: (p: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mt="sm" gap="sm">
      <Text size="sm" c="dimmed" data-testid="table-total">
        {t('services.total', { n: formatNumber(total) })}
      </Text>
      {pages > 1 && <Pagination total={pages} value={page} onChange={onPage} size="sm" />}
    </Group>
  );
}

/** A short sentence where rows would be, with the action that fills the table if there is one. */
export function EmptyRows({ columns, children, testId }: { columns: number; children: ReactNode; testId: string }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={columns}>
        <Stack align="center" gap="xs" py="xl" data-testid={testId}>
          {children}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}
