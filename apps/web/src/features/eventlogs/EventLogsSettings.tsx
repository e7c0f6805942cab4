import { MIN_RETENTION_DAYS, SIEM_TOOLS, type SiemStatus, type SiemToolName } from '@latchkey/contracts/client';
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  NumberInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { SectionCard } from '../../components/SectionCard.tsx';
import { DataFetchError } from '../../components/StatusScreens.tsx';
import { call } from '../../lib/api.ts';
import { errorMessage, errorValues } from '../../lib/api-error.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { teamKeys, useAuxServicesQuery } from '../team/index.ts';
import {
  eventKeys,
  useEventLogsConfigQuery,
  usePullTokenMutation,
  useRetentionMutation,
  useSiemSwitchMutation,
  useSiemToolQuery,
  useSiemUpdateMutation,
} from './api.ts';
import { SiemFormModal } from './SiemForm.tsx';

/** Spec §4: active and tested green; inactive red; pending and awaiting verification yellow. */
export const STATUS_COLOUR: Record<SiemStatus, string> = {
  active: 'teal',
  tested: 'teal',
  inactive: 'red',
  pending: 'yellow',
  awaiting_config_verification: 'yellow',
};

/** /settings/eventlogs: the service switch (reachable while off), retention (self-hosted) and SIEM export. */
export function EventLogsSettings() {
  const services = useAuxServicesQuery();
  const hub = services.data?.[0];
  const on = Boolean(hub?.services.audit_logs?.enabled);
  return (
    <Stack gap="lg" data-testid="eventlogs-settings">
      <ServiceCard credentialId={hub?.credential_id ?? ''} on={on} loading={services.isLoading} />
      {on && <RetentionCard />}
      {on && <SiemCard />}
      {on && <PullTokenCard />}
    </Stack>
  );
}

function ServiceCard({ credentialId, on, loading }: { credentialId: string; on: boolean; loading: boolean }) {
  const { t } = useTranslation();
  const team = useSession()?.team_slug ?? '';
  const client = useQueryClient();
  const toggle = useMutation({
    mutationFn: (next: boolean) =>
      next
        ? call('enableAuxServices', { credential_id: credentialId, services: ['enable_audit_logs'] })
        : call('disableAuxServices', { services: ['enable_audit_logs'] }),
    onSuccess: () => notifications.show({ color: 'teal', message: t('eventlogs.settings.service_updated') }),
    onError: (error) => notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: teamKeys.services(team) });
      void client.invalidateQueries({ queryKey: eventKeys.all(team) });
    },
  });
  return (
    <SectionCard
      title={t('eventlogs.settings.service_title')}
      testId="eventlogs-service-card"
      action={
        loading ? (
          <Skeleton h={24} w={44} />
        ) : (
          <Switch
            checked={on}
            disabled={toggle.isPending || !credentialId}
            onChange={(e) => toggle.mutate(e.currentTarget.checked)}
            aria-label={t('eventlogs.settings.service_title')}
            data-testid="eventlogs-service-toggle"
          />
        )
      }
    >
      <Text size="sm" c="dimmed">
        {t(on ? 'eventlogs.settings.service_on' : 'eventlogs.settings.service_off')}
      </Text>
    </SectionCard>
  );
}

function RetentionCard() {
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
      {update.error ? <Alert color="red">{t(errorMessage(update.error), errorValues(update.error))}</Alert> : null}
      <Text size="xs" c="dimmed">
        {t('eventlogs.retention.hint')}
      </Text>
    </SectionCard>
  );
}

function SiemCard() {
  const { t } = useTranslation();
  const config = useEventLogsConfigQuery();
  const tool = useSiemToolQuery();
  const toggle = useSiemSwitchMutation();
  const [editing, setEditing] = useState<SiemToolName | null>(null);
  const enabled = config.data?.siem_enabled ?? false;
  const data = tool.data?.data ?? null;
  return (
    <SectionCard
      title={t('siem.title')}
      testId="siem-card"
      action={
        config.data && (
          <Switch
            checked={enabled}
            label={t('siem.export_switch')}
            disabled={toggle.isPending}
            onChange={(e) => toggle.mutate({ action: e.currentTarget.checked ? 'enable' : 'disable' })}
            data-testid="siem-export-toggle"
          />
        )
      }
    >
      <Text size="sm" c="dimmed">
        {t('siem.description')}
      </Text>
      {tool.isError && <DataFetchError onRetry={() => void tool.refetch()} />}
      {!tool.data && !tool.isError && <Skeleton h={120} />}
      {tool.data && !data && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" data-testid="siem-vendors">
          {SIEM_TOOLS.map((name) => (
            <Card key={name} withBorder padding="md" radius="md">
              {/* Wraps rather than cutting the badge short: "Nicht konfiguriert" is longer than "Not configured". */}
              <Group justify="space-between" gap="xs">
                <Stack gap={2}>
                  <Text fw={500}>{t(`siem.vendor.${name}`)}</Text>
                  <Badge size="sm" variant="light" color="gray" styles={{ label: { overflow: 'visible' } }}>
                    {t('siem.status.not_configured')}
                  </Badge>
                </Stack>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => setEditing(name)}
                  style={{ flexShrink: 0 }}
                  data-testid={`siem-configure-${name}`}
                >
                  {t('siem.configure')}
                </Button>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
      {data && <Destination tool={data} onEdit={() => setEditing(data.siem_tool)} />}
      {editing && <SiemFormModal tool={editing} existing={data} onClose={() => setEditing(null)} />}
    </SectionCard>
  );
}

function Destination({
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
        onError: (error) => notifications.show({ color: 'red', message: t(errorMessage(error), errorValues(error)) }),
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

/** The pull API's token (SIEMs that poll): shown once when made; a new one replaces the old. */
function PullTokenCard() {
  const { t } = useTranslation();
  const config = useEventLogsConfigQuery();
  const token = usePullTokenMutation();
  const [shown, setShown] = useState<string | null>(null);
  const created = config.data?.pull_token_created_at ?? null;
  return (
    <SectionCard title={t('eventlogs.pull.title')} testId="pull-token-card">
      <Text size="sm" c="dimmed">
        {t('eventlogs.pull.description')}
      </Text>
      <Text size="sm" data-testid="pull-token-state">
        {created ? t('eventlogs.pull.created', { date: formatDateTime(created) }) : t('eventlogs.pull.none')}
      </Text>
      {shown && (
        <Alert color="yellow" data-testid="pull-token-shown">
          <Stack gap="xs">
            <Text size="sm">{t('eventlogs.pull.copy_now')}</Text>
            <Group gap="xs" wrap="nowrap">
              <Code style={{ wordBreak: 'break-all' }}>{shown}</Code>
              <CopyButton value={shown}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {t(copied ? 'eventlogs.pull.copied' : 'eventlogs.pull.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      <Group gap="sm">
        <Button
          size="sm"
          variant="default"
          loading={token.isPending}
          onClick={() => token.mutate({ action: 'create' }, { onSuccess: (r) => setShown(r.token) })}
          data-testid="pull-token-create"
        >
          {t(created ? 'eventlogs.pull.replace' : 'eventlogs.pull.create')}
        </Button>
        {created && (
          <Button
            size="sm"
            variant="subtle"
            color="red"
            disabled={token.isPending}
            onClick={() => token.mutate({ action: 'revoke' }, { onSuccess: () => setShown(null) })}
            data-testid="pull-token-revoke"
          >
            {t('eventlogs.pull.revoke')}
          </Button>
        )}
      </Group>
    </SectionCard>
  );
}
