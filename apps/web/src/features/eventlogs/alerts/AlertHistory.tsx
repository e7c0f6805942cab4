import { Anchor, Badge, Card, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'wouter';
import { Pager } from '../../../components/Pager.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/use-translation.ts';
import { activityLabel } from '../log/activity-text.ts';
import { epochToDay, writeAddress } from '../log/address.ts';
import { type AlertFiringRow, type AlertRule, useAlertFiringsQuery } from './alerts-api.ts';

const STATUS_COLOR = { pending: 'gray', delivered: 'teal', failed: 'red' } as const;

/**
 * A rule's firings, ten a page under the console's pager: when, how many matched, for which group,
 * each destination's delivery, the events.
 */
export function AlertHistory({ rule, onClose }: { rule: AlertRule; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const firings = useAlertFiringsQuery(rule.id, page);
  const data = firings.data;
  return (
    <Drawer opened onClose={onClose} position="right" size="lg" title={t('alerts.history.title', { name: rule.name })}>
      <Stack gap="sm" data-testid="alert-history">
        {firings.isPending ? (
          <Loader size="sm" />
        ) : data?.firings.length ? (
          <>
            {data.firings.map((f) => (
              <FiringCard key={f.id} firing={f} />
            ))}
            <Pager page={page} pages={data.pages} total={data.total} shown={data.firings.length} onPage={setPage} />
          </>
        ) : (
          <Text size="sm" c="dimmed" data-testid="alert-history-empty">
            {t('alerts.history.empty')}
          </Text>
        )}
      </Stack>
    </Drawer>
  );
}

function FiringCard({ firing }: { firing: AlertFiringRow }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm" data-testid="alert-firing" data-test={String(firing.test)}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} size="sm">
            {formatDateTime(firing.fired_at)}
          </Text>
          {firing.test && <Badge variant="light">{t('alerts.history.test')}</Badge>}
        </Group>
        <Text size="sm" data-testid="alert-firing-count">
          {t('alerts.history.matches', { n: firing.event_count })}
          {firing.group_key ? ` · ${firing.group_key}` : ''}
        </Text>
        <Group gap={6} wrap="wrap">
          {firing.deliveries.map((d) => (
            <Badge
              key={d.destination_id}
              color={STATUS_COLOR[d.status]}
              variant="light"
              title={d.last_error ?? undefined}
              data-testid="alert-delivery"
              data-kind={d.kind}
              data-status={d.status}
            >
              {t(`alerts.dest.short_${d.kind}`)}: {t(`alerts.delivery.${d.status}`)}
            </Badge>
          ))}
        </Group>
        {firing.events.length > 0 && (
          <Stack gap={2}>
            {firing.events.slice(0, 5).map((e) => (
              <Text key={e.id} size="xs" c="dimmed" truncate>
                {formatDateTime(e.recorded_at)} · {activityLabel(e.activity)}
                {e.ip ? ` · ${e.ip}` : ''}
              </Text>
            ))}
            <Anchor component={Link} size="xs" href={`/eventlogs?${logQuery(firing)}`} data-testid="alert-firing-events">
              {t('alerts.history.open_events')}
            </Anchor>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/** The event log filtered to what matched: the firing's activities, its addresses (a few), the days it spans. */
function logQuery(firing: AlertFiringRow): string {
  const unique = (values: string[]) => [...new Set(values.filter(Boolean))];
  const ips = unique(firing.events.map((e) => e.ip));
  const day = (iso: string | undefined) => (iso ? epochToDay(Date.parse(iso) / 1000) : '');
  return writeAddress({
    search: '',
    picked: {
      activities: unique(firing.events.map((e) => e.activity)),
      actors: [],
      components: [],
      ips: ips.length <= 3 ? ips : [],
    },
    from: day(firing.events[0]?.recorded_at),
    to: day(firing.events.at(-1)?.recorded_at),
    saved: null,
  });
}
