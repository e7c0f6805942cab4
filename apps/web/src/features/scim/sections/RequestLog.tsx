import type { ScimConnector, ScimRequest } from '@latchkey/contracts/client';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { type Column, DataTable } from '../../../components/DataTable.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useRequestsQuery } from '../api.ts';

export function RequestLog({ connector, onClose }: { connector: ScimConnector; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const requests = useRequestsQuery(connector.id, page);
  const columns: Column<ScimRequest>[] = [
    {
      key: 'at',
      header: 'scim.log.at',
      width: 190,
      visibleFrom: 'sm',
      cell: (r) => <Text size="sm">{formatDateTime(r.at)}</Text>,
    },
    {
      key: 'request',
      header: 'scim.log.request',
      maxWidth: 320,
      cell: (r) => (
        <>
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {r.method} {r.path}
          </Text>
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {formatDateTime(r.at)}
          </Text>
        </>
      ),
    },
    {
      key: 'status',
      header: 'scim.log.status',
      width: 90,
      cell: (r) => (
        <Badge
          variant="light"
          color={r.status >= 500 ? 'red' : r.status >= 400 ? 'yellow' : 'green'}
          data-testid="scim-log-status"
        >
          {r.status}
        </Badge>
      ),
    },
    {
      key: 'duration',
      header: 'scim.log.duration',
      width: 100,
      align: 'right',
      visibleFrom: 'sm',
      cell: (r) => <Text size="sm">{t('scim.log.ms', { n: formatNumber(r.duration_ms) })}</Text>,
    },
    {
      key: 'error',
      header: 'scim.log.error',
      maxWidth: 260,
      visibleFrom: 'md',
      cell: (r) => (
        <Text size="xs" c={r.error ? 'red' : 'dimmed'} lineClamp={2}>
          {r.error ?? '—'}
        </Text>
      ),
    },
  ];
  return (
    <Card withBorder radius="md" padding="md" data-testid="scim-log">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('scim.log.title', { name: connector.name })}
          </Title>
          <Button size="xs" variant="default" onClick={onClose}>
            {t('scim.log.close')}
          </Button>
        </Group>
        <DataTable
          columns={columns}
          rows={requests.data?.results}
          rowKey={(r) => r.id}
          rowProps={() => ({ 'data-testid': 'scim-log-row' })}
          testId="scim-log-table"
          minWidth={300}
          skeletonRows={3}
          error={requests.isError}
          onRetry={() => void requests.refetch()}
          emptyTestId="scim-log-empty"
          empty={<Text c="dimmed">{t('scim.log.empty')}</Text>}
          pager={
            requests.data
              ? {
                  page,
                  pages: requests.data.pages,
                  total: requests.data.count,
                  shown: requests.data.results.length,
                  onPage: setPage,
                }
              : undefined
          }
        />
      </Stack>
    </Card>
  );
}
