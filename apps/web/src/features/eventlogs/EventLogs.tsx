import { EVENT_COUNT_CAP, EVENT_SEARCH_COUNT_CAP } from '@latchkey/contracts/client';
import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useRef, useState } from 'react';
import { Link } from 'wouter';
import { DataTable } from '../../components/DataTable.tsx';
import { ListToolbar } from '../../components/ListToolbar.tsx';
import { useListState } from '../../lib/use-list-state.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { EMPTY_FILTERS, type EventRow, type Filters, useEventLogsQuery, useVerifyChainMutation } from './api.ts';
import { VerifyChainButton, VerifyChainResult } from './ChainVerify.tsx';
import { fromSavedFilters, writeAddress } from './log/address.ts';
import { EventDrawer } from './log/EventDrawer.tsx';
import { EventFilterFields } from './log/EventFilterFields.tsx';
import { ExportMenu } from './log/ExportMenu.tsx';
import { useEventColumns } from './log/event-columns.tsx';
import { dayToEpoch, NO_PICKS, type PickedFilters } from './log/filters.ts';
import { useInitialLogAddress, useLogAddressSync } from './log/use-log-address.ts';
import { SavedSearchesMenu } from './saved/SavedSearchesMenu.tsx';
import type { SavedSearch } from './saved/saved-searches-api.ts';
import { useOpenSavedLink } from './saved/use-open-saved-link.ts';

/** Event Logs Overview: every recorded action, filtered, searched, paged by keyset, exported. */
export function EventLogs() {
  const { t } = useTranslation();
  // The filters live in the address (bookmarks, links, reloads): read once, then kept in step.
  const initial = useInitialLogAddress();
  const { search, setSearch, term: debounced, page, setPage } = useListState({ initialSearch: initial.search });
  const [picked, setPicked] = useState<PickedFilters>(initial.picked);
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [saved, setSaved] = useState<string | null>(initial.saved);
  useLogAddressSync({ search: search.trim(), picked, from, to, saved });
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
  // A search is saved as the admin typed it, not as the debounced term the list has caught up with.
  const typed: Filters = { ...filters, search_value: search.trim() };
  const list = useEventLogsQuery(page, filters, page > 1 ? cursors.current.get(page) : undefined);
  const verify = useVerifyChainMutation();
  const rows = list.data?.results;
  if (list.data?.next_before_seq != null && !list.isPlaceholderData) cursors.current.set(page + 1, list.data.next_before_seq);

  /** Any filter change starts again at page 1 with no cursors (spec §4: paging resets when the search changes). */
  const reset = () => {
    setPage(1);
    cursors.current = new Map();
  };
  const pick = (key: keyof PickedFilters) => (value: string[]) => {
    setPicked((p) => ({ ...p, [key]: value }));
    reset();
  };
  const openSaved = (s: SavedSearch) => {
    const f = fromSavedFilters(s.filters);
    setSearch(f.search);
    setPicked(f.picked);
    setFrom(f.from);
    setTo(f.to);
    setSaved(s.id);
    reset();
  };
  useOpenSavedLink(initial, openSaved, () => {
    setSaved(null);
    notifications.show({ color: 'yellow', message: t('eventlogs.saved.not_found') });
  });
  const anyFilter =
    search || from || to || picked.activities.length || picked.actors.length || picked.components.length || picked.ips.length;

  const columns = useEventColumns();

  return (
    <Stack gap="md" data-testid="eventlogs">
      <Stack gap="sm">
        <ListToolbar
          align="flex-end"
          search={{
            value: search,
            onChange: (value) => {
              setSearch(value);
              reset();
            },
            label: t('eventlogs.search'),
            labelVisible: true,
            placeholder: t('eventlogs.search_placeholder'),
            testId: 'eventlogs-search',
            width: 320,
          }}
          actions={
            <Group gap="sm">
              <SavedSearchesMenu filters={typed} selectedId={saved} onOpen={openSaved} onSelected={setSaved} />
              <VerifyChainButton verify={verify} />
              <ExportMenu filters={filters} />
              <Button
                component={Link}
                variant="default"
                href={`/eventlogs/alerts?${writeAddress({ search: search.trim(), picked, from: '', to: '', saved: null })}`}
                data-testid="eventlogs-alerts-link"
              >
                {t('alerts.link')}
              </Button>
            </Group>
          }
        />
        <VerifyChainResult verify={verify} />
        <EventFilterFields
          picked={picked}
          onPick={pick}
          from={from}
          to={to}
          onFrom={(day) => {
            setFrom(day);
            reset();
          }}
          onTo={(day) => {
            setTo(day);
            reset();
          }}
        />
        {anyFilter ? (
          <Group>
            <Button
              variant="subtle"
              size="xs"
              onClick={() => {
                setSearch('');
                setFrom('');
                setTo('');
                setPicked(NO_PICKS);
                setSaved(null);
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
            ? // An older Hub does not count a search: its pages go by cursor, next while it hands one out.
              { page, hasNext: list.data.next_before_seq !== null, shown: rows?.length ?? 0, onPage: setPage }
            : {
                page,
                pages: list.data.pages ?? 1,
                total: list.data.total,
                totalCapped: list.data.total >= (debounced ? EVENT_SEARCH_COUNT_CAP : EVENT_COUNT_CAP),
                shown: rows?.length ?? 0,
                onPage: setPage,
              })
        }
      />
      <EventDrawer event={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
