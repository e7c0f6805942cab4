import { EVENT_COUNT_CAP, type ExportFormat } from '@latchkey/contracts/client';
import {
  Badge,
  Button,
  Code,
  Drawer,
  Group,
  Menu,
  MultiSelect,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { type Column, DataTable } from '../../components/DataTable.tsx';
import { errorMessage } from '../../lib/api-error.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { limitProps, SEARCH_MAX } from '../../lib/limits.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import {
  EMPTY_FILTERS,
  type EventRow,
  exportEvents,
  type Filters,
  useEventFiltersQuery,
  useEventLogsQuery,
  useVerifyChainMutation,
} from './api.ts';
import { VerifyChainButton, VerifyChainResult } from './ChainVerify.tsx';

/** yyyy-mm-dd of a date input → epoch seconds at the start (or end) of that day, in the admin's time zone. */
const dayToEpoch = (day: string, end: boolean): number | null => {
  if (!day) return null;
  const d = new Date(`${day}T${end ? '23:59:59' : '00:00:00'}`);
  return Number.isNaN(d.getTime()) ? null : Math.floor(d.getTime() / 1000);
};

/** Event Logs Overview: every recorded action, filtered, searched, paged by keyset, exported. */
export function EventLogs() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [picked, setPicked] = useState({
    activities: [] as string[],
    actors: [] as string[],
    components: [] as string[],
    ips: [] as string[],
  });
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  // The keyset cursor of each page reached by stepping (page → before_seq); a jump goes without.
  const cursors = useRef(new Map<number, number>());
  const [open, setOpen] = useState<EventRow | null>(null);
  const filters: Filters = {
    ...EMPTY_FILTERS,
    activities: picked.activities,
    actors: picked.actors,
    components: picked.components,
    ip_addresses: picked.ips,
    dates: { start_timestamp: dayToEpoch(from, false), end_timestamp: dayToEpoch(to, true) },
    search_value: debounced,
  };
  const list = useEventLogsQuery(page, filters, page > 1 ? cursors.current.get(page) : undefined);
  const options = useEventFiltersQuery();
  const verify = useVerifyChainMutation();
  const rows = list.data?.results;
  if (list.data?.next_before_seq != null && !list.isPlaceholderData) cursors.current.set(page + 1, list.data.next_before_seq);

  /** Any filter change starts again at page 1 with no cursors (spec §4: paging resets when the search changes). */
  const reset = () => {
    setPage(1);
    cursors.current = new Map();
  };
  const pick = (key: keyof typeof picked) => (value: string[]) => {
    setPicked((p) => ({ ...p, [key]: value }));
    reset();
  };
  const anyFilter =
    search || from || to || picked.activities.length || picked.actors.length || picked.components.length || picked.ips.length;

  const columns: Column<EventRow>[] = [
    { key: 'time', header: 'eventlogs.col.time', nowrap: true, cell: (r) => formatDateTime(r.occurred_at) },
    {
      key: 'actor',
      header: 'eventlogs.col.actor',
      maxWidth: 240,
      cell: (r) => (
        <Stack gap={0}>
          <Text size="sm" fw={500} truncate>
            {r.actor || '–'}
          </Text>
          <Text size="xs" c="dimmed">
            {t(`eventlogs.actor_type.${r.actor_type}`)}
          </Text>
        </Stack>
      ),
    },
    { key: 'activity', header: 'eventlogs.col.activity', cell: (r) => <Code>{r.activity}</Code> },
    { key: 'component', header: 'eventlogs.col.component', visibleFrom: 'lg', cell: (r) => r.component },
    {
      key: 'target',
      header: 'eventlogs.col.target',
      visibleFrom: 'md',
      maxWidth: 200,
      cell: (r) => (
        <Text size="sm" truncate>
          {r.target || '–'}
        </Text>
      ),
    },
    { key: 'ip', header: 'eventlogs.col.ip', visibleFrom: 'xl', nowrap: true, cell: (r) => r.ip || '–' },
    {
      key: 'outcome',
      header: 'eventlogs.col.outcome',
      cell: (r) => (
        <Badge variant="light" color={r.outcome === 'success' ? 'teal' : 'red'}>
          {t(`eventlogs.outcome.${r.outcome}`)}
        </Badge>
      ),
    },
  ];

  const select = (key: keyof typeof picked, label: string, data: string[] | undefined, testId: string) => (
    <MultiSelect
      label={t(label)}
      data={data ?? []}
      value={picked[key]}
      onChange={pick(key)}
      searchable
      clearable
      maxDropdownHeight={190}
      size="sm"
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );

  return (
    <Stack gap="md" data-testid="eventlogs">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm" align="flex-end">
          <TextInput
            {...limitProps(SEARCH_MAX)}
            label={t('eventlogs.search')}
            placeholder={t('eventlogs.search_placeholder')}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              reset();
            }}
            w={{ base: '100%', xs: 320 }}
            size="sm"
            data-testid="eventlogs-search"
          />
          <Group gap="sm">
            <VerifyChainButton verify={verify} />
            <ExportMenu filters={filters} />
          </Group>
        </Group>
        <VerifyChainResult verify={verify} />
        <SimpleGrid cols={{ base: 2, md: 3, xl: 6 }} spacing="sm">
          {select('activities', 'eventlogs.filter.activities', options.data?.activities, 'filter-activities')}
          {select('actors', 'eventlogs.filter.actors', options.data?.actors, 'filter-actors')}
          {select('components', 'eventlogs.filter.components', options.data?.components, 'filter-components')}
          {select('ips', 'eventlogs.filter.ip_addresses', options.data?.ip_addresses, 'filter-ips')}
          <TextInput
            type="date"
            label={t('eventlogs.filter.from')}
            value={from}
            onChange={(e) => {
              setFrom(e.currentTarget.value);
              reset();
            }}
            size="sm"
            data-testid="filter-from"
          />
          <TextInput
            type="date"
            label={t('eventlogs.filter.to')}
            value={to}
            onChange={(e) => {
              setTo(e.currentTarget.value);
              reset();
            }}
            size="sm"
            data-testid="filter-to"
          />
        </SimpleGrid>
        {anyFilter ? (
          <Group>
            <Button
              variant="subtle"
              size="xs"
              onClick={() => {
                setSearch('');
                setFrom('');
                setTo('');
                setPicked({ activities: [], actors: [], components: [], ips: [] });
                reset();
              }}
              data-testid="filters-clear"
            >
              {t('eventlogs.filter.clear')}
            </Button>
          </Group>
        ) : null}
      </Stack>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(r) => String(r.seq)}
        rowProps={(r) => ({
          'data-testid': 'event-row',
          'data-activity': r.activity,
          'data-target': r.target,
          'data-event-id': r.id,
          onClick: () => setOpen(r),
          style: { cursor: 'pointer' },
        })}
        testId="event-table"
        minWidth={560}
        error={list.isError}
        onRetry={() => void list.refetch()}
        emptyTestId="event-empty"
        empty={
          <Text size="sm" c="dimmed">
            {anyFilter ? t('eventlogs.no_match') : t('eventlogs.empty')}
          </Text>
        }
        pager={
          list.data &&
          (list.data.total === null
            ? // A search is not counted: its pages go by cursor, next while the server hands one out.
              { page, hasNext: list.data.next_before_seq !== null, shown: rows?.length ?? 0, onPage: setPage }
            : {
                page,
                pages: list.data.pages ?? 1,
                total: list.data.total,
                totalCapped: list.data.total >= EVENT_COUNT_CAP,
                shown: rows?.length ?? 0,
                onPage: setPage,
              })
        }
      />
      <EventDrawer event={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}

function EventDrawer({ event, onClose }: { event: EventRow | null; onClose: () => void }) {
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
          {field('eventlogs.col.activity', event.activity, true)}
          {field('eventlogs.col.time', formatDateTime(event.occurred_at))}
          {field('eventlogs.detail.recorded', formatDateTime(event.recorded_at))}
          {field('eventlogs.col.actor', `${event.actor || '–'} (${t(`eventlogs.actor_type.${event.actor_type}`)})`)}
          {field('eventlogs.col.component', event.component)}
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

/** Export of the current filter, streamed from the Hub with its progress; the file is saved once complete. */
function ExportMenu({ filters }: { filters: Filters }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<{ rows: number; total: number } | null>(null);
  const run = async (format: ExportFormat) => {
    setProgress({ rows: 0, total: 0 });
    try {
      const done = await exportEvents(format, filters, (rows, total) => setProgress({ rows, total }));
      const url = URL.createObjectURL(done.blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = done.filename;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      notifications.show({ color: 'teal', message: t('eventlogs.export.done', { n: formatNumber(done.rows) }) });
    } catch (error) {
      notifications.show({ color: 'red', message: t(errorMessage(error)) });
    } finally {
      setProgress(null);
    }
  };
  if (progress)
    return (
      <Stack gap={4} w={{ base: '100%', xs: 260 }} data-testid="export-progress">
        <Text size="sm">
          {t('eventlogs.export.progress', { rows: formatNumber(progress.rows), total: formatNumber(progress.total) })}
        </Text>
        <Progress value={progress.total ? (100 * progress.rows) / progress.total : 0} animated />
      </Stack>
    );
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <Button variant="default" size="sm" data-testid="export-button">
          {t('eventlogs.export.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => void run('csv')} data-testid="export-csv">
          {t('eventlogs.export.csv')}
        </Menu.Item>
        <Menu.Item onClick={() => void run('ndjson')} data-testid="export-ndjson">
          {t('eventlogs.export.ndjson')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
