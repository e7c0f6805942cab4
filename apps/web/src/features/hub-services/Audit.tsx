import { AUDIT_POLICY_DEFAULTS, type AuditField } from '@latchkey/contracts/client';
import { Anchor, Card, SimpleGrid, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'wouter';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useAuditPolicyQuery, useAuditSummariesQuery } from './api.ts';
import { ScoreBadge } from './score.tsx';
import { EmptyRows, Pager, SkeletonRows, SortableTh } from './table.tsx';

const COLUMNS: { field: AuditField; key: string; numeric?: boolean }[] = [
  { field: 'email', key: 'audit.col.member' },
  { field: 'score', key: 'audit.col.score' },
  { field: 'weak', key: 'audit.col.weak', numeric: true },
  { field: 'reused', key: 'audit.col.reused', numeric: true },
  { field: 'old', key: 'audit.col.old', numeric: true },
  { field: 'compromised', key: 'audit.col.compromised', numeric: true },
  { field: 'total_items', key: 'audit.col.items', numeric: true },
  { field: 'updated_at', key: 'audit.col.updated' },
];

/** Security audit: each member's vault health, as their apps report it (counts and a score only). */
export function Audit() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [order, setOrder] = useState<{ field: AuditField; desc: boolean }>({ field: 'score', desc: false });
  const [page, setPage] = useState(1);
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
      <TextInput
        placeholder={t('audit.search')}
        aria-label={t('audit.search')}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        w={{ base: '100%', xs: 280 }}
        size="sm"
      />
      {list.isError ? (
        <DataFetchError onRetry={() => void list.refetch()} />
      ) : (
        <div>
          <Table.ScrollContainer minWidth={960}>
            <Table verticalSpacing="sm" highlightOnHover data-testid="audit-table">
              <Table.Thead>
                <Table.Tr>
                  {COLUMNS.map((c) => (
                    <SortableTh
                      key={c.field}
                      label={t(c.key)}
                      numeric={c.numeric}
                      active={order.field === c.field}
                      desc={order.desc}
                      onSort={() => sort(c.field)}
                    />
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {!list.data ? (
                  <SkeletonRows columns={COLUMNS.length} />
                ) : list.data.results.length === 0 ? (
                  <EmptyRows columns={COLUMNS.length} testId="audit-empty">
                    <Text size="sm" c="dimmed">
                      {debounced ? t('audit.no_match') : t('audit.empty')}
                    </Text>
                  </EmptyRows>
                ) : (
                  list.data.results.map((s) => (
                    <Table.Tr key={s.summary_id} data-testid="audit-row" data-email={s.email}>
                      <Table.Td>
                        <Anchor component={Link} href={`/vault/${s.summary_id}`} size="sm" fw={500}>
                          {s.email}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <ScoreBadge score={s.score} atRiskBelow={policy.at_risk_below_score} />
                      </Table.Td>
                      {(['weak', 'reused', 'old', 'compromised', 'total_items'] as const).map((k) => (
                        <Table.Td key={k} ta="right" c={k === 'compromised' && s[k] > 0 ? 'red' : undefined}>
                          {formatNumber(s[k])}
                        </Table.Td>
                      ))}
                      <Table.Td>
                        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                          {formatDate(s.updated_at)}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {list.data && <Pager total={list.data.total} pages={list.data.pages} page={page} onPage={setPage} />}
        </div>
      )}
    </Stack>
  );
}
