import { Button, Group, Text } from '@mantine/core';
import { formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';

/** Previous / page n / next under a locally paged table, with the range shown. */
export function Pager({
  page,
  pages,
  total,
  shown,
  onPage,
}: {
  page: number;
  pages: number;
  total: number;
  shown: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const from = (page - 1) * 10 + 1;
  return (
    <Group justify="space-between" data-testid="pager">
      <Text size="sm" c="dimmed" data-testid="pager-range">
        {shown > 0
          ? t('members.range', { from: formatNumber(from), to: formatNumber(from + shown - 1), total: formatNumber(total) })
          : '\u00a0'}
      </Text>
      <Group gap="xs">
        <Button size="xs" variant="default" disabled={page === 1} onClick={() => onPage(page - 1)}>
          {t('members.previous')}
        </Button>
        <Text size="sm" aria-live="polite">
          {t('members.page', { n: formatNumber(page) })}
        </Text>
        <Button size="xs" variant="default" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          {t('members.next')}
        </Button>
      </Group>
    </Group>
  );
}
