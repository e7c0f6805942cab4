import { Anchor, Badge, Card, Group, Pagination, Skeleton, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { usePolicyHistoryQuery } from './api.ts';
import { policyLabel } from './format.ts';

/** /policies/history: every change, newest first, ten a page; a row opens its diff. */
export function PolicyHistory() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [, navigate] = useLocation();
  const query = usePolicyHistoryQuery(page);
  if (query.isError) return <DataFetchError onRetry={() => void query.refetch()} />;
  const rows = query.data?.results;
  return (
    <Card withBorder radius="md" padding={0}>
      <Table.ScrollContainer minWidth={720}>
        <Table verticalSpacing="sm" highlightOnHover data-testid="policy-history-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('policy.history.when')}</Table.Th>
              <Table.Th>{t('policy.history.who')}</Table.Th>
              <Table.Th>{t('policy.history.scope')}</Table.Th>
              <Table.Th>{t('policy.history.changes')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {!rows
              ? [1, 2, 3, 4, 5].map((n) => (
                  <Table.Tr key={n}>
                    <Table.Td colSpan={4}>
                      <Skeleton h={20} />
                    </Table.Td>
                  </Table.Tr>
                ))
              : rows.map((row) => (
                  <Table.Tr
                    key={row.id}
                    style={{ cursor: 'pointer' }}
                    onClick={() => navigate(`/policies/history/${row.id}`)}
                    data-testid="policy-history-row"
                  >
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={`/policies/history/${row.id}`}
                        size="sm"
                        style={{ whiteSpace: 'nowrap' }}
                        onClick={(e: React.MouseEvent) => e.stopPropagation()}
                      >
                        {formatDateTime(row.created_at)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{row.actor_email}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6}>
                        <Text size="sm">
                          {row.scope === 'team' ? t('policy.history.team') : t('policy.history.group', { name: row.group_name })}
                        </Text>
                        {row.action === 'restore' && (
                          <Badge size="xs" variant="light" color="teal">
                            {t('policy.history.restored')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" lineClamp={2}>
                        {row.changed_keys.length === 0
                          ? t('policy.history.no_change')
                          : row.changed_keys.map((k) => policyLabel(t, k)).join(', ')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows && rows.length === 0 && (
        <Text ta="center" c="dimmed" py="xl" data-testid="policy-history-empty">
          {t('policy.history.empty')}
        </Text>
      )}
      {query.data && query.data.count > 0 && (
        <Group justify="space-between" p="md" wrap="wrap">
          <Text size="sm" c="dimmed">
            {t('policy.history.total', { count: query.data.count, total: formatNumber(query.data.count) })}
          </Text>
          <Pagination total={query.data.pages} value={page} onChange={setPage} size="sm" />
        </Group>
      )}
    </Card>
  );
}
