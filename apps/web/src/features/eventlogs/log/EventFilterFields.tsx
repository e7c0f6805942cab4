import { type ComboboxData, MultiSelect, SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.ts';
import { useEventFiltersQuery } from '../api.ts';
import { activityOptions, componentLabel } from './activity-text.ts';
import type { PickedFilters } from './filters.ts';

/** The event log's filters: activities (by label, grouped by component), actors, components and IP addresses to pick, and a day range. */
export function EventFilterFields({
  picked,
  onPick,
  from,
  to,
  onFrom,
  onTo,
}: {
  picked: PickedFilters;
  onPick: (key: keyof PickedFilters) => (value: string[]) => void;
  from: string;
  to: string;
  onFrom: (day: string) => void;
  onTo: (day: string) => void;
}) {
  const { t } = useTranslation();
  const options = useEventFiltersQuery();
  const select = (key: keyof PickedFilters, label: string, data: ComboboxData | undefined, testId: string) => (
    <MultiSelect
      label={t(label)}
      data={data ?? []}
      value={picked[key]}
      onChange={onPick(key)}
      searchable
      clearable
      maxDropdownHeight={190}
      size="sm"
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );

  return (
    <SimpleGrid cols={{ base: 2, md: 3, xl: 6 }} spacing="sm">
      {select('activities', 'eventlogs.filter.activities', activityOptions(options.data?.activities ?? []), 'filter-activities')}
      {select('actors', 'eventlogs.filter.actors', options.data?.actors, 'filter-actors')}
      {select(
        'components',
        'eventlogs.filter.components',
        options.data?.components.map((c) => ({ value: c, label: componentLabel(c) })),
        'filter-components',
      )}
      {select('ips', 'eventlogs.filter.ip_addresses', options.data?.ip_addresses, 'filter-ips')}
      <TextInput
        type="date"
        label={t('eventlogs.filter.from')}
        value={from}
        onChange={(e) => onFrom(e.currentTarget.value)}
        size="sm"
        data-testid="filter-from"
      />
      <TextInput
        type="date"
        label={t('eventlogs.filter.to')}
        value={to}
        onChange={(e) => onTo(e.currentTarget.value)}
        size="sm"
        data-testid="filter-to"
      />
    </SimpleGrid>
  );
}
