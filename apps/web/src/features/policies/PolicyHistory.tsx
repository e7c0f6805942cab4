import type { HistoryEntry } from '@latchkey/contracts/client';
import { Anchor, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { EmailAddress } from '../../components/EmailAddress.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { usePolicyHistoryQuery } from './api.ts';
import { policyLabel } from './format.ts';

/** /policies/history: every change, newest first, ten a page; a row opens its diff. */
export function PolicyHistory() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [, navigate] = useLocation();
  const query = usePolicyHistoryQuery(page);
  const columns: Column<HistoryEntry>[] = [
    {
      key: 'when',
      header: 'policy.history.when',
      nowrap: true,
      cell: (row) => (
        <Anchor
          component={Link}
          to={`/policies/history/${row.id}`}
          size="sm"
          onClick={(e: React.MouseEvent) => e.stopPropagation()}
        >
          {formatDateTime(row.created_at)}
        </Anchor>
      ),
    },
    {
      key: 'who',
      header: 'policy.history.who',
      cell: (row) => (
        <>
          <Text size="sm">
            <EmailAddress address={row.actor_email} />
          </Text>
          {row.approved_by.length > 0 && (
            <Text size="xs" c="dimmed" data-testid="policy-history-approved-by">
              {t('policy.history.approved_by', { names: row.approved_by.join(', ') })}
            </Text>
          )}
        </>
      ),
    },
    {
      key: 'scope',
      header: 'policy.history.scope',
      cell: (row) => (
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
      ),
    },
    {
      key: 'changes',
      header: 'policy.history.changes',
      cell: (row) => (
        // Every changed key is listed in full: the row grows rather than hiding some.
        <Text size="sm">
          {row.changed_keys.length === 0
            ? t('policy.history.no_change')
            : row.changed_keys.map((k) => policyLabel(t, k)).join(', ')}
        </Text>
      ),
    },
  ];
  return (
    <Stack gap="sm">
      <Card withBorder radius="md" padding="md">
        <DataTable
          columns={columns}
          rows={query.data?.results}
          rowKey={(row) => row.id}
          rowProps={(row) => ({
            'data-testid': 'policy-history-row',
            style: { cursor: 'pointer' },
            onClick: () => navigate(`/policies/history/${row.id}`),
          })}
          testId="policy-history-table"
          minWidth={720}
          error={query.isError}
          onRetry={() => void query.refetch()}
          emptyTestId="policy-history-empty"
          empty={<Text c="dimmed">{t('policy.history.empty')}</Text>}
          pager={
            query.data && {
              page,
              pages: query.data.pages,
              total: query.data.count,
              shown: query.data.results.length,
              onPage: setPage,
            }
          }
        />
      </Card>
    </Stack>
  );
}
