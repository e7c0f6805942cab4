import { Code, Drawer, Stack, Text } from '@mantine/core';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import type { EventRow } from '../api.ts';
import { activityDescription, activityLabel, componentLabel } from './activity-text.ts';

export function EventDrawer({ event, onClose }: { event: EventRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const field = (label: string, value: string, mono = false) => (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {t(label)}
      </Text>
      <Text size="sm" ff={mono ? 'monospace' : undefined} style={{ wordBreak: 'break-all' }}>
        {value || '–'}
      </Text>
    </Stack>
  );
  return (
    <Drawer opened={event !== null} onClose={onClose} position="right" title={t('eventlogs.detail.title')} size="md">
      {event && (
        <Stack gap="sm" data-testid="event-detail">
          <Stack gap={2}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('eventlogs.col.activity')}
            </Text>
            <Text fw={600} data-testid="event-detail-label">
              {activityLabel(event.activity)}
            </Text>
            {activityDescription(event) && (
              <Text size="sm" data-testid="event-detail-description" style={{ overflowWrap: 'anywhere' }}>
                {activityDescription(event)}
              </Text>
            )}
            <Code w="fit-content" data-testid="event-detail-code">
              {event.activity}
            </Code>
          </Stack>
          {field('eventlogs.col.time', formatDateTime(event.occurred_at))}
          {field('eventlogs.detail.recorded', formatDateTime(event.recorded_at))}
          {field('eventlogs.col.actor', `${event.actor || '–'} (${t(`eventlogs.actor_type.${event.actor_type}`)})`)}
          {field('eventlogs.col.component', componentLabel(event.component))}
          {field('eventlogs.col.target', event.target)}
          {field('eventlogs.col.ip', event.ip)}
          {field('eventlogs.detail.device', event.device)}
          {field('eventlogs.col.outcome', t(`eventlogs.outcome.${event.outcome}`))}
          <Stack gap={2}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('eventlogs.detail.detail')}
            </Text>
            <Code block>{JSON.stringify(event.detail, null, 2)}</Code>
          </Stack>
          {field('eventlogs.detail.id', event.id, true)}
          {field('eventlogs.detail.seq', formatNumber(event.seq))}
          {field('eventlogs.detail.hash', event.hash, true)}
          {field('eventlogs.detail.prev_hash', event.prev_hash, true)}
          <Text size="xs" c="dimmed">
            {t('eventlogs.detail.chain_hint')}
          </Text>
        </Stack>
      )}
    </Drawer>
  );
}
