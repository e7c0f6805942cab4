import { type EffectivePolicyItem, policyTitleKey } from '@latchkey/contracts/client';
import { Badge, Group, Skeleton, Stack, Text } from '@mantine/core';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { useTranslation } from '../../lib/use-translation.ts';
import { useEffectivePolicyQuery } from './api.ts';
import { formatValue } from './format.ts';

/**
 * A member's effective policy, each value with where it comes from ("from group X"). Computed by
 * the server; self-contained so the member's page (users/{userData}) can mount it as it is.
 */
export function EffectivePolicy({ email }: { email: string }) {
  const { t } = useTranslation();
  const query = useEffectivePolicyQuery(email);
  if (query.isPending) {
    return (
      <Stack gap="xs" aria-busy="true">
        {[1, 2, 3, 4, 5].map((n) => (
          <Skeleton key={n} h={28} />
        ))}
      </Stack>
    );
  }
  if (query.isError) return <DataFetchError onRetry={() => void query.refetch()} />;
  const { groups, policies } = query.data;
  const columns: Column<EffectivePolicyItem>[] = [
    { key: 'policy', header: 'policy.col.policy', cell: (item) => t(policyTitleKey(item.key)) },
    {
      key: 'value',
      header: 'policy.col.value',
      cell: (item) => (
        <Text size="sm" fw={500}>
          {formatValue(t, item.value)}
        </Text>
      ),
    },
    { key: 'source', header: 'policy.col.source', cell: (item) => <Source item={item} /> },
  ];
  return (
    <Stack gap="sm" data-testid="effective-policy">
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {t('policy.effective.groups')}
        </Text>
        {groups.length === 0 ? (
          <Text size="sm">{t('policy.effective.no_groups')}</Text>
        ) : (
          groups.map((g) => (
            <Badge key={g.id} variant="light">
              {g.name}
            </Badge>
          ))
        )}
      </Group>
      {/* Below 768 px each policy is a card, like every list's rows. */}
      <DataTable
        columns={columns}
        rows={policies}
        rowKey={(item) => item.key}
        rowProps={(item) => ({ 'data-testid': `effective-${item.key}` })}
        testId="effective-policy-table"
        minWidth={480}
        highlightOnHover={false}
        emptyTestId="effective-policy-empty"
        empty={null}
      />
    </Stack>
  );
}

function Source({ item }: { item: EffectivePolicyItem }) {
  const { t } = useTranslation();
  const text =
    item.source === 'group' ? t('policy.source.group', { name: item.group_name ?? '' }) : t(`policy.source.${item.source}`);
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" c={item.source === 'default' ? 'dimmed' : undefined}>
        {text}
      </Text>
      {!item.enforced && item.source === 'group' && (
        <Badge size="xs" variant="outline" color="gray">
          {t('policy.not_enforced')}
        </Badge>
      )}
    </Group>
  );
}
