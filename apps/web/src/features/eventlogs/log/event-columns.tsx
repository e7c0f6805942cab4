import { Badge, Stack, Text } from '@mantine/core';
import type { Column } from '../../../components/DataTable.tsx';
import { EmailAddress } from '../../../components/EmailAddress.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import type { EventRow } from '../api.ts';
import { activityLabel, componentLabel } from './activity-text.ts';

/**
 * The event table's columns: time, actor, activity (its label, the component below it), target, IP
 * and outcome, fewer on narrower screens so none is clipped; on a phone each event is a card headed
 * by its activity. Codes stay in the details.
 */
export function useEventColumns(): Column<EventRow>[] {
  const { t } = useTranslation();
  return [
    { key: 'time', header: 'eventlogs.col.time', nowrap: true, cell: (r) => formatDateTime(r.occurred_at) },
    {
      key: 'actor',
      header: 'eventlogs.col.actor',
      maxWidth: 220,
      cell: (r) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {r.actor ? <EmailAddress address={r.actor} /> : '–'}
          </Text>
          <Text size="xs" c="dimmed">
            {t(`eventlogs.actor_type.${r.actor_type}`)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'activity',
      header: 'eventlogs.col.activity',
      primary: true,
      cell: (r) => (
        <Stack gap={0}>
          <Text size="sm" fw={500} data-testid="event-activity">
            {activityLabel(r.activity)}
          </Text>
          <Text size="xs" c="dimmed">
            {componentLabel(r.component)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'target',
      header: 'eventlogs.col.target',
      visibleFrom: 'md',
      maxWidth: 200,
      cell: (r) => (
        // Wrapped, never cut: a long target (an email, a share's id) breaks inside its column.
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {r.target || '–'}
        </Text>
      ),
    },
    { key: 'ip', header: 'eventlogs.col.ip', visibleFrom: 'xl', nowrap: true, cell: (r) => r.ip || '–' },
    {
      key: 'outcome',
      header: 'eventlogs.col.outcome',
      nowrap: true,
      cell: (r) => (
        // As wide as its word: a squeezed badge would cut "Erfolgreich".
        <Badge variant="light" color={r.outcome === 'success' ? 'teal' : 'red'} style={{ minWidth: 'max-content' }}>
          {t(`eventlogs.outcome.${r.outcome}`)}
        </Badge>
      ),
    },
  ];
}
