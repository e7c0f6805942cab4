import { AUDIT_POLICY_DEFAULTS } from '@latchkey/contracts/client';
import { Anchor, Card, Group, RingProgress, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'wouter';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { ApiError } from '../../lib/api-error.ts';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useAuditPolicyQuery, useVaultSummaryQuery } from './api.ts';
import { scoreLevel } from './rules.ts';
import { LEVEL_COLOR, ScoreBadge } from './score.tsx';

const COUNTS = ['weak', 'reused', 'old', 'compromised'] as const;

/** One member's vault summary (/vault/{summaryId}): score, counts and the devices that report them. */
export function VaultSummary() {
  const { t } = useTranslation();
  const { summaryId = '' } = useParams<{ summaryId: string }>();
  const query = useVaultSummaryQuery(summaryId);
  const policy = useAuditPolicyQuery().data ?? AUDIT_POLICY_DEFAULTS;
  const back = (
    <Anchor component={Link} href="/audit" size="sm">
      ← {t('audit.back')}
    </Anchor>
  );
  if (query.isError) {
    const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <Stack gap="md">
        {back}
        {missing ? (
          <Text data-testid="vault-missing">{t('audit.summary_missing')}</Text>
        ) : (
          <DataFetchError onRetry={() => void query.refetch()} />
        )}
      </Stack>
    );
  }
  const data = query.data;
  const s = data?.summary;
  return (
    <Stack gap="md" data-testid="vault-summary">
      {back}
      <Card withBorder padding="lg">
        {!s ? (
          <Skeleton h={120} />
        ) : (
          <Group gap="xl" wrap="wrap">
            <RingProgress
              size={120}
              thickness={10}
              roundCaps
              sections={[{ value: s.score, color: LEVEL_COLOR[scoreLevel(s.score, policy.at_risk_below_score)] }]}
              label={
                <Text ta="center" fw={700} size="xl" data-testid="vault-score">
                  {s.score}
                </Text>
              }
            />
            <Stack gap={4} style={{ flex: '1 1 200px', minWidth: 0 }}>
              <Title order={2} size="h4" data-testid="vault-email" style={{ wordBreak: 'break-all' }}>
                {s.email}
              </Title>
              <ScoreBadge score={s.score} atRiskBelow={policy.at_risk_below_score} />
              <Text size="sm" c="dimmed">
                {t('audit.items_updated', { n: formatNumber(s.total_items), date: formatDate(s.updated_at) })}
              </Text>
            </Stack>
          </Group>
        )}
      </Card>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        {COUNTS.map((k) => (
          <Card key={k} withBorder padding="md">
            <Text size="xs" c="dimmed">
              {t(`audit.col.${k}`)}
            </Text>
            {s ? (
              <Text fw={700} size="xl" c={k === 'compromised' && s[k] > 0 ? 'red' : undefined} data-testid={`vault-${k}`}>
                {formatNumber(s[k])}
              </Text>
            ) : (
              <Skeleton h={28} mt={4} />
            )}
            <Text size="xs" c="dimmed" mt={4}>
              {t(`audit.hint.${k}`, { days: formatNumber(policy.old_password_days) })}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <Card withBorder padding="md">
        <Title order={3} size="h5" mb="sm">
          {t('audit.devices')}
        </Title>
        {!data ? (
          <Skeleton h={60} />
        ) : data.devices.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('audit.no_devices')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table data-testid="vault-devices">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('audit.device')}</Table.Th>
                  <Table.Th>{t('audit.app_version')}</Table.Th>
                  <Table.Th>{t('audit.last_seen')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.devices.map((d) => (
                  <Table.Tr key={`${d.name}-${d.last_seen_at}`}>
                    <Table.Td>
                      {d.name}
                      {d.os && (
                        <Text span c="dimmed" size="sm">
                          {' '}
                          · {d.os}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{d.app_version || '–'}</Table.Td>
                    <Table.Td>{formatDateTime(d.last_seen_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}
