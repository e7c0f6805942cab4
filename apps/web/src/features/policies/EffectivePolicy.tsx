import { type EffectivePolicyItem, policyTitleKey } from '@latchkey/contracts/client';
import { Badge, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
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
      <Table.ScrollContainer minWidth={480}>
        <Table verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('policy.col.policy')}</Table.Th>
              <Table.Th>{t('policy.col.value')}</Table.Th>
              <Table.Th>{t('policy.col.source')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {policies.map((item) => (
              <Table.Tr key={item.key} data-testid={`effective-${item.key}`}>
                <Table.Td>{t(policyTitleKey(item.key))}</Table.Td>
                <Table.Td fw={500}>{formatValue(t, item.value)}</Table.Td>
                <Table.Td>
                  <Source item={item} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
