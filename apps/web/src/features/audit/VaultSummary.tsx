import { AUDIT_POLICY_DEFAULTS } from '@latchkey/contracts/client';
import { Card, Group, RingProgress, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'wouter';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { EmailAddress } from '../../components/EmailAddress.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { ApiError } from '../../lib/api-error.ts';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { useAuditPolicyQuery, useVaultSummaryQuery, type VaultDevice } from './api.ts';
import { scoreLevel } from './rules.ts';
import { LEVEL_COLOR, ScoreBadge } from './score.tsx';

const COUNTS = ['weak', 'reused', 'old', 'compromised'] as const;

/** One member's vault summary (/vault/{summaryId}): score, counts and the devices that report them. */
export function VaultSummary() {
  const { t } = useTranslation();
  const { summaryId = '' } = useParams<{ summaryId: string }>();
  const query = useVaultSummaryQuery(summaryId);
  const policy = useAuditPolicyQuery().data ?? AUDIT_POLICY_DEFAULTS;
  if (query.isError) {
    const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <Stack gap="md">
        {missing ? (
          <Text data-testid="vault-missing">{t('audit.summary_missing')}</Text>
        ) : (
          <DataFetchError onRetry={() => void query.refetch()} />
        )}
      </Stack>
    );
  }
  const data = query.data;
  const deviceColumns: Column<VaultDevice>[] = [
    {
      key: 'device',
      header: 'audit.device',
      cell: (d) => (
        <Text size="sm">
          {d.name}
          {d.os && (
            <Text span c="dimmed" size="sm">
              {' '}
              · {d.os}
            </Text>
          )}
        </Text>
      ),
    },
    { key: 'version', header: 'audit.app_version', cell: (d) => d.app_version || '–' },
    { key: 'seen', header: 'audit.last_seen', cell: (d) => formatDateTime(d.last_seen_at) },
  ];
  const s = data?.summary;
  return (
    <Stack gap="md" data-testid="vault-summary">
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
              <Title order={2} size="h4" data-testid="vault-email">
                <EmailAddress address={s.email} />
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
          // Below 768 px each device is a card, like every list's rows.
          <DataTable
            columns={deviceColumns}
            rows={data.devices}
            rowKey={(d) => `${d.name}-${d.last_seen_at}`}
            testId="vault-devices"
            minWidth={420}
            highlightOnHover={false}
            emptyTestId="vault-devices-empty"
            empty={null}
          />
        )}
      </Card>
    </Stack>
  );
}
