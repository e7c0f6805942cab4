import type { SiemStatus } from '@latchkey/contracts/client';
import { Badge, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { toastFailure } from '../../../lib/failure-toast.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { type useSiemToolQuery, useSiemUpdateMutation } from '../api.ts';

/** Spec §4: active and tested green; inactive red; pending and awaiting verification yellow. */
const STATUS_COLOUR: Record<SiemStatus, string> = {
  active: 'teal',
  tested: 'teal',
  inactive: 'red',
  pending: 'yellow',
  awaiting_config_verification: 'yellow',
};

export function Destination({
  tool,
  onEdit,
}: {
  tool: NonNullable<ReturnType<typeof useSiemToolQuery>['data']>['data'] & {};
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const update = useSiemUpdateMutation();
  const [deleting, setDeleting] = useState(false);
  const [from, setFrom] = useState('');
  const act = (action: 'activate' | 'deactivate' | 'test' | 'backfill', extra: { from_timestamp?: number } = {}) =>
    update.mutate(
      { id: tool.id, action, ...extra },
      {
        onSuccess: () => notifications.show({ color: 'teal', message: t(`siem.done.${action}`) }),
        onError: (error) => toastFailure(t, error),
      },
    );
  const h = tool.health;
  const stat = (label: string, value: string, testId: string) => (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {t(label)}
      </Text>
      <Text size="sm" fw={500} data-testid={testId} style={{ wordBreak: 'break-word' }}>
        {value}
      </Text>
    </Stack>
  );
  return (
    <Stack gap="md" data-testid="siem-destination" data-status={tool.status}>
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Text fw={600}>{t(`siem.vendor.${tool.siem_tool}`)}</Text>
          <Badge variant="light" color={STATUS_COLOUR[tool.status]} data-testid="siem-status">
            {t(`siem.status.${tool.status}`)}
          </Badge>
        </Group>
        <Group gap="xs">
          {tool.is_active ? (
            <Button
              size="xs"
              variant="default"
              onClick={() => act('deactivate')}
              loading={update.isPending}
              data-testid="siem-deactivate"
            >
              {t('siem.deactivate')}
            </Button>
          ) : (
            <Button size="xs" onClick={() => act('activate')} loading={update.isPending} data-testid="siem-activate">
              {t('siem.activate')}
            </Button>
          )}
          <Button size="xs" variant="default" onClick={() => act('test')} disabled={update.isPending} data-testid="siem-test">
            {t('siem.send_test')}
          </Button>
          <Button size="xs" variant="default" onClick={onEdit} disabled={tool.is_active} data-testid="siem-edit">
            {t('siem.edit')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={() => setDeleting(true)}
            disabled={tool.is_active}
            data-testid="siem-delete"
          >
            {t('siem.delete')}
          </Button>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" data-testid="siem-health">
        {stat(
          'siem.health.last_synced',
          tool.last_synced ? formatDateTime(new Date(tool.last_synced * 1000).toISOString()) : '–',
          'siem-last-synced',
        )}
        {stat('siem.health.lag', formatNumber(h.lag), 'siem-lag')}
        {stat('siem.health.delivered', formatNumber(h.delivered_count), 'siem-delivered')}
        {stat('siem.health.cursor', `${formatNumber(h.cursor_seq)} / ${formatNumber(h.head_seq)}`, 'siem-cursor')}
        {stat('siem.health.last_attempt', h.last_attempt_at ? formatDateTime(h.last_attempt_at) : '–', 'siem-last-attempt')}
        {stat('siem.health.last_error', h.last_error ?? '–', 'siem-last-error')}
      </SimpleGrid>
      <Group align="flex-end" gap="sm">
        <TextInput
          type="date"
          label={t('siem.backfill.from')}
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
          size="sm"
          data-testid="siem-backfill-from"
        />
        <Button
          size="sm"
          variant="default"
          disabled={!from || update.isPending}
          onClick={() => act('backfill', { from_timestamp: Math.floor(new Date(`${from}T00:00:00`).getTime() / 1000) })}
          data-testid="siem-backfill"
        >
          {t('siem.backfill.button')}
        </Button>
      </Group>
      {deleting && (
        <ConfirmDialog
          title={t('siem.delete_confirm.title')}
          action={t('siem.delete')}
          pending={update.isPending}
          error={update.error}
          onConfirm={() => update.mutate({ id: tool.id, action: 'delete' }, { onSuccess: () => setDeleting(false) })}
          onClose={() => setDeleting(false)}
        >
          {t('siem.delete_confirm.body', { vendor: t(`siem.vendor.${tool.siem_tool}`) })}
        </ConfirmDialog>
      )}
    </Stack>
  );
}
