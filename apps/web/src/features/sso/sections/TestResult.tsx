import type { SsoTestResult } from '@latchkey/contracts/client';
import { Alert, Badge, Group, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { DataFetchError } from '../../../components/StatusScreens.tsx';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useSsoTestQuery } from '../api.ts';

/** What the identity provider sent and which checks passed, after a test sign-in. */
export function TestResult({ id }: { id: string }) {
  const { t } = useTranslation();
  const result = useSsoTestQuery(id);
  if (result.isPending) return <Skeleton h={80} />;
  if (result.isError) return <DataFetchError onRetry={() => void result.refetch()} />;
  const r: SsoTestResult = result.data;
  const a = r.attributes;
  return (
    <Stack gap="sm" data-testid="sso-test-result">
      <Alert color={r.status === 'success' ? 'green' : 'red'} data-testid="sso-test-outcome">
        {r.status === 'success'
          ? t('sso.test_passed')
          : `${t('sso.test_failed')} ${t('sso.error_code', { code: r.response_key ?? '' })}`}
      </Alert>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Stack gap={4}>
          <Text fw={600} size="sm">
            {t('sso.checks')}
          </Text>
          {r.checks.map((c) => (
            <Group key={c.name} gap="xs" wrap="nowrap" data-testid={`sso-check-${c.name}`}>
              <Badge color={c.passed ? 'green' : 'red'} variant="light" miw={70}>
                {t(c.passed ? 'sso.check_passed' : 'sso.check_failed')}
              </Badge>
              <Text size="sm">{t(`sso.check.${c.name}`)}</Text>
            </Group>
          ))}
        </Stack>
        {a && (
          <Stack gap={4}>
            <Text fw={600} size="sm">
              {t('sso.attributes')}
            </Text>
            <Table withRowBorders={false} verticalSpacing={2} data-testid="sso-attributes">
              <Table.Tbody>
                {(
                  [
                    ['sso.attr.name_id', a.name_id],
                    ['sso.attr.email', a.email],
                    ['sso.attr.name', a.name],
                    ['sso.attr.groups', a.groups.join(', ')],
                    ...Object.entries(a.other).map(([k, v]) => [k, v.join(', ')]),
                  ] as [string, string | null][]
                ).map(([k, v]) => (
                  <Table.Tr key={k}>
                    <Table.Td c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {k.startsWith('sso.') ? t(k) : k}
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{v || '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {r.maps_to_admin !== null && (
              <Text size="sm" c={r.maps_to_admin ? 'green' : 'orange'}>
                {t(r.maps_to_admin ? 'sso.maps_to_admin' : 'sso.maps_to_no_admin')}
              </Text>
            )}
          </Stack>
        )}
      </SimpleGrid>
    </Stack>
  );
}
