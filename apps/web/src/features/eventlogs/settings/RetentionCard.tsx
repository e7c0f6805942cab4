import { MIN_RETENTION_DAYS } from '@latchkey/contracts/client';
import { Alert, Button, Group, NumberInput, Skeleton, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { SectionCard } from '../../../components/SectionCard.tsx';
import { DataFetchError } from '../../../components/StatusScreens.tsx';
import { ApprovalRequired, errorMessage, errorValues } from '../../../lib/api-error.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useEventLogsConfigQuery, useRetentionMutation } from '../api.ts';

export function RetentionCard() {
  const { t } = useTranslation();
  const config = useEventLogsConfigQuery();
  const update = useRetentionMutation();
  const [days, setDays] = useState<number | ''>('');
  if (config.isError) return <DataFetchError onRetry={() => void config.refetch()} />;
  if (!config.data) return <Skeleton h={140} radius="md" />;
  if (!config.data.self_hosted) return null;
  const current = config.data.delete_after_days;
  const value = days === '' ? (current ?? '') : days;
  const unchanged = value === '' || value === current;
  return (
    <SectionCard title={t('eventlogs.retention.title')} testId="retention-card">
      <Text size="sm" c="dimmed">
        {current
          ? t('eventlogs.retention.current', { days: formatNumber(current), n: formatNumber(config.data.total_events) })
          : t('eventlogs.retention.forever', { n: formatNumber(config.data.total_events) })}
      </Text>
      <Group align="flex-end" gap="sm">
        <NumberInput
          label={t('eventlogs.retention.days')}
          min={MIN_RETENTION_DAYS}
          max={Number.MAX_SAFE_INTEGER}
          allowDecimal={false}
          allowNegative={false}
          value={value}
          onChange={(v) => setDays(typeof v === 'number' ? v : '')}
          w={200}
          data-testid="retention-days"
        />
        <Button
          disabled={unchanged || Number(value) < MIN_RETENTION_DAYS}
          loading={update.isPending}
          onClick={() =>
            update.mutate(
              { delete_after_days: Number(value) },
              { onSuccess: () => notifications.show({ color: 'teal', message: t('eventlogs.retention.updated') }) },
            )
          }
          data-testid="retention-save"
        >
          {t('eventlogs.retention.update')}
        </Button>
      </Group>
      {/* A shorter retention may wait for another super admin: the page's approval notice says so, not a failure. */}
      {update.error && !(update.error instanceof ApprovalRequired) ? (
        <Alert color="red">{t(errorMessage(update.error), errorValues(update.error))}</Alert>
      ) : null}
      <Text size="xs" c="dimmed">
        {t('eventlogs.retention.hint')}
      </Text>
    </SectionCard>
  );
}
