import { AUDIT_POLICY_DEFAULTS, type AuditField } from '@latchkey/contracts/client';
import { Anchor, Card, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { EmailAddress } from '../../components/EmailAddress.tsx';
import { ListSearch } from '../../components/ListToolbar.tsx';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { useListState } from '../../lib/use-list-state.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { type AuditSummaryRow, useAuditPolicyQuery, useAuditSummariesQuery } from './api.ts';
import { ScoreBadge } from './score.tsx';

const COUNTS = ['weak', 'reused', 'old', 'compromised', 'total_items'] as const;
const COUNT_HEADERS: Record<(typeof COUNTS)[number], string> = {
  weak: 'audit.col.weak',
  reused: 'audit.col.reused',
  old: 'audit.col.old',
  compromised: 'audit.col.compromised',
  total_items: 'audit.col.items',
};

/** The vault health columns; every one sorts on the Hub. */
function auditColumns(atRiskBelow: number): Column<AuditSummaryRow>[] {
  return [
    {
      key: 'email',
      header: 'audit.col.member',
      sortable: true,
      cell: (s) => (
        <Anchor component={Link} href={`/vault/${s.summary_id}`} size="sm" fw={500}>
          <EmailAddress address={s.email} />
        </Anchor>
      ),
    },
    {
      key: 'score',
      header: 'audit.col.score',
      sortable: true,
      cell: (s) => <ScoreBadge score={s.score} atRiskBelow={atRiskBelow} />,
    },
    ...COUNTS.map(
      (k): Column<AuditSummaryRow> => ({
        key: k,
        header: COUNT_HEADERS[k],
        sortable: true,
        align: 'right',
        cell: (s) => (
          <Text size="sm" c={k === 'compromised' && s[k] > 0 ? 'red' : undefined}>
            {formatNumber(s[k])}
          </Text>
        ),
      }),
    ),
    {
      key: 'updated_at',
      header: 'audit.col.updated',
      sortable: true,
      // The date may wrap (month / year): on one line it pushed this last column out of view at 1280 px.
      width: 120,
      cell: (s) => (
        <Text size="sm" c="dimmed">
          {formatDate(s.updated_at)}
        </Text>
      ),
    },
  ];
}

/** Security audit: each member's vault health, as their apps report it (counts and a score only). */
export function Audit() {
  const { t } = useTranslation();
  const { search, setSearch, term: debounced, page, setPage } = useListState();
  const [order, setOrder] = useState<{ field: AuditField; desc: boolean }>({ field: 'score', desc: false });
  const list = useAuditSummariesQuery({ page, search: debounced, ...order });
  const policy = useAuditPolicyQuery().data ?? AUDIT_POLICY_DEFAULTS;
  const sort = (field: AuditField) => {
    setOrder((o) => ({ field, desc: o.field === field ? !o.desc : field !== 'email' }));
    setPage(1);
  };
  const totals = list.data?.totals;
  const figures = [
    { key: 'audit.totals.members', value: totals?.members },
    { key: 'audit.totals.average', value: totals?.average_score ?? undefined },
    { key: 'audit.col.weak', value: totals?.weak },
    { key: 'audit.col.reused', value: totals?.reused },
    { key: 'audit.col.old', value: totals?.old },
    { key: 'audit.col.compromised', value: totals?.compromised },
  ];
  return (
    <Stack gap="md" data-testid="audit">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
        {figures.map((f) => (
          <Card key={f.key} withBorder padding="sm">
            <Text size="xs" c="dimmed">
              {t(f.key)}
            </Text>
            {totals ? (
              <Text fw={700} size="xl" data-testid={`audit-total-${f.key}`}>
                {f.value === undefined ? '–' : formatNumber(f.value)}
              </Text>
            ) : (
              <Skeleton h={28} mt={4} />
            )}
          </Card>
        ))}
      </SimpleGrid>
      <Text size="sm" c="dimmed" data-testid="audit-policy">
        {t('audit.policy', { days: formatNumber(policy.old_password_days), score: policy.at_risk_below_score })}
      </Text>
      <ListSearch
        value={search}
        onChange={(value) => {
          setSearch(value);
          // At once, not when the term settles: no page of the new term is asked for past its end.
          setPage(1);
        }}
        label={t('audit.search')}
      />
      <DataTable
        columns={auditColumns(policy.at_risk_below_score)}
        rows={list.data?.results}
        rowKey={(s) => s.summary_id}
        rowProps={(s) => ({ 'data-testid': 'audit-row', 'data-email': s.email })}
        testId="audit-table"
        minWidth={900}
        // Nine columns in about 950 px at a 1280 px window: tighter cells keep the last one in view.
        cellSpacing={6}
        error={list.isError}
        onRetry={() => void list.refetch()}
        sort={{ key: order.field, desc: order.desc, onSort: (key) => sort(key as AuditField) }}
        emptyTestId="audit-empty"
        empty={
          <Text size="sm" c="dimmed">
            {debounced ? t('audit.no_match') : t('audit.empty')}
          </Text>
        }
        pager={
          list.data && {
            page,
            pages: list.data.pages,
            total: list.data.total,
            shown: list.data.results.length,
            onPage: setPage,
            rangeTestId: 'table-total',
          }
        }
      />
    </Stack>
  );
}
